package io.agentteams.scheduler.dispatch.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.scheduler.dispatch.application.WorkerEvent.UsageBody;
import org.junit.jupiter.api.Test;

/** A usage report is a total: a negative amount is refused by name, never read as none. */
class UsageBodyTest {

  @Test
  void aNegativeAmountOfAnyMeasureIsRefusedNamingItsField() {
    assertRefused(new UsageBody(-5L, null, null, null, null, null), "tokens");
    assertRefused(new UsageBody(null, -1L, 3L, null, null, null), "input_tokens");
    assertRefused(new UsageBody(10L, null, -1L, null, null, null), "output_tokens");
    assertRefused(new UsageBody(10L, null, null, -2L, null, null), "cost");
    assertRefused(new UsageBody(10L, null, null, null, -2L, null), "cost_units");
  }

  @Test
  void zeroAndPositiveAmountsAreTaken() {
    var usage = new UsageBody(0L, 2L, 3L, 7L, null, "m").toUsage();
    assertThat(usage.tokens()).isEqualTo(5);
    assertThat(usage.costUnits()).isEqualTo(7);
  }

  private static void assertRefused(UsageBody body, String field) {
    assertThatThrownBy(body::toUsage)
        .isInstanceOfSatisfying(
            DomainFailure.class,
            problem -> {
              assertThat(problem.code()).isEqualTo("invalid-usage");
              assertThat(problem.parameters()).containsEntry("field", field);
              assertThat(problem.detail()).contains(field);
            });
  }
}
