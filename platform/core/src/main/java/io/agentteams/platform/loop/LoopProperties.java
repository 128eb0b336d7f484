package io.agentteams.platform.loop;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What every periodic loop shares; each loop's period is its own service's setting.
 *
 * @param jitter how much each wait between two runs varies at random, as a fraction of the period
 *     (0.1: ±10 %), so that replicas started together do not run in step
 * @param maxRunDuration the longest one run may take unless its loop names a bound of its own; a
 *     run still going then is cancelled (its open transaction rolls back) and counted as timed out
 */
@Validated
@ConfigurationProperties("agentteams.loops")
public record LoopProperties(
    @DefaultValue("0.1") double jitter, @DefaultValue("1m") Duration maxRunDuration) {

  public LoopProperties {
    if (!(jitter >= 0 && jitter < 1)) {
      throw new IllegalArgumentException("agentteams.loops.jitter must be in [0, 1)");
    }
    if (maxRunDuration.isNegative() || maxRunDuration.isZero()) {
      throw new IllegalArgumentException("agentteams.loops.max-run-duration must be positive");
    }
  }

  /** The defaults, for code that builds loops without Spring. */
  public static LoopProperties defaults() {
    return new LoopProperties(0.1, Duration.ofMinutes(1));
  }
}
