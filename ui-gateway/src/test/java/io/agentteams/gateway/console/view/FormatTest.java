package io.agentteams.gateway.console.view;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FormatTest {

  private final Format fmt = Format.INSTANCE;

  @Test
  void aLifetimeIsWrittenInWholeUnitsWithTheRightNumber() {
    assertThat(fmt.lifetime(3600)).isEqualTo("1 hour");
    assertThat(fmt.lifetime(12 * 3600)).isEqualTo("12 hours");
    assertThat(fmt.lifetime(5400)).isEqualTo("90 minutes");
    assertThat(fmt.lifetime(60)).isEqualTo("1 minute");
    assertThat(fmt.lifetime(45)).isEqualTo("45 seconds");
  }

  @Test
  void countsHaveThousandsSeparatorsAndMoneyIsToTheCent() {
    assertThat(fmt.number(1234567)).isEqualTo("1,234,567");
    assertThat(fmt.number(12)).isEqualTo("12");
    assertThat(Spend.money(1_234_567_890, "USD")).isEqualTo("1,234.57 USD");
    assertThat(Spend.money(0, "USD")).isEqualTo("0.00 USD");
    assertThat(Spend.money(123, "USD")).as("below a cent").isEqualTo("< 0.01 USD");
  }
}
