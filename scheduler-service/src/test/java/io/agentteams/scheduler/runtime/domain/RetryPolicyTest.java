package io.agentteams.scheduler.runtime.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  private static final RetryPolicy POLICY =
      new RetryPolicy(5, Duration.ofSeconds(1), Duration.ofSeconds(60));

  @Property
  void theWaitDoublesWithJitterAndNeverExceedsTheMaximum(
      @ForAll @IntRange(min = 1, max = 40) int attempt,
      @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) double random) {
    long ceiling = Math.min(1000L << Math.min(attempt - 1, 20), 60_000);
    Duration wait = POLICY.delayAfter(attempt, null, () -> random);
    assertThat(wait.toMillis()).isBetween(ceiling / 2, ceiling);
  }

  @Property
  void aRetryAfterIsHonouredUpToTheMaximum(
      @ForAll @IntRange(min = 0, max = 100_000) int seconds,
      @ForAll @IntRange(min = 1, max = 5) int attempt) {
    Duration wait = POLICY.delayAfter(attempt, Duration.ofSeconds(seconds), () -> 0.5);
    assertThat(wait).isEqualTo(Duration.ofSeconds(Math.min(seconds, 60)));
  }

  @Test
  void attemptsAreBounded() {
    assertThat(POLICY.mayRetryAfter(1)).isTrue();
    assertThat(POLICY.mayRetryAfter(4)).isTrue();
    assertThat(POLICY.mayRetryAfter(5)).isFalse();
  }
}
