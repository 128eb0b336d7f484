package io.agentteams.sdk.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2));

  @Test
  void ceilingsDoubleUpToTheMaximumAndDelaysAreJitteredBelowThem() {
    assertThat(backoff.ceiling(0)).isEqualTo(Duration.ofMillis(100));
    assertThat(backoff.ceiling(3)).isEqualTo(Duration.ofMillis(800));
    assertThat(backoff.ceiling(10)).isEqualTo(Duration.ofSeconds(2));
    assertThat(backoff.ceiling(500)).isEqualTo(Duration.ofSeconds(2));
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      Duration delay = backoff.delay(3);
      assertThat(delay).isPositive().isLessThanOrEqualTo(Duration.ofMillis(800));
      seen.add(delay.toMillis());
    }
    assertThat(seen).as("jitter spreads clients that lost the same server").hasSizeGreaterThan(20);
  }
}
