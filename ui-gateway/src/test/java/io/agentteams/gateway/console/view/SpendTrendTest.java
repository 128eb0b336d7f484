package io.agentteams.gateway.console.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The spend trend and each team's total as the console writes them. */
class SpendTrendTest {

  @Test
  void eachDaysBarIsItsShareOfTheBusiestDayAndTheTrendAddsUp() {
    Spend.Day quiet = new Spend.Day("2026-12-06", 0, 0, 0);
    Spend.Day some = new Spend.Day("2026-12-05", 250, 5_000, 1);
    Spend.Day busiest = new Spend.Day("2026-12-07", 1_000, 2_500_000, 3);
    Spend.Trend trend = new Spend.Trend(List.of(some, quiet, busiest), "USD");

    assertThat(trend.tokens()).isEqualTo(1_250);
    assertThat(trend.percent(busiest)).isEqualTo(100);
    assertThat(trend.percent(some)).isEqualTo(25);
    assertThat(trend.percent(quiet)).isZero();
    assertThat(busiest.label()).isEqualTo("Mon 7 Dec");
    assertThat(busiest.cost("USD")).isEqualTo("2.50 USD");
    assertThat(new Spend.Trend(List.of(quiet), "USD").percent(quiet)).isZero();
  }

  @Test
  void aTeamsTotalIsMoneyToTheCentAndTokensWithSeparatorsZeroWhenItSpentNothing() {
    UUID spent = UUID.randomUUID();
    UUID idle = UUID.randomUUID();
    OwnerSpend owner =
        new OwnerSpend(
            "EUR",
            null,
            List.of(new OwnerSpend.TeamTotal(spent, 1_234_567, 12_345_678, 4)),
            List.of());

    assertThat(owner.teamTokens(spent)).isEqualTo("1,234,567");
    assertThat(owner.teamCost(spent)).isEqualTo("12.35 EUR");
    assertThat(owner.teamTokens(idle)).isEqualTo("0");
    assertThat(owner.teamCost(idle)).isEqualTo("0.00 EUR");
  }
}
