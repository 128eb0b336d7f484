package io.agentteams.scheduler.runtime.domain;

import java.time.Duration;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;

/**
 * How a runtime retries sending a job (a webhook push, an A2A message): at most {@code maxAttempts}
 * attempts; before attempt n+1 a wait drawn uniformly between half and all of {@code base·2^(n-1)}
 * ("equal jitter", so replicas retrying at once spread out), never more than {@code max}; a {@code
 * Retry-After} the agent sent is honoured instead, up to {@code max}.
 *
 * @param maxAttempts attempts per message, the first included
 * @param base the wait before the second attempt, before jitter
 * @param max the longest wait
 */
public record RetryPolicy(int maxAttempts, Duration base, Duration max) {

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("a push is attempted at least once");
    }
    if (base.isNegative() || max.compareTo(base) < 0) {
      throw new IllegalArgumentException("need 0 <= base <= max");
    }
  }

  /** Whether another attempt may follow attempt {@code attempt} (counted from 1). */
  public boolean mayRetryAfter(int attempt) {
    return attempt < maxAttempts;
  }

  /**
   * The wait before the attempt after {@code attempt}.
   *
   * @param retryAfter what the agent asked for, if anything
   * @param random uniform in [0, 1)
   */
  public Duration delayAfter(int attempt, @Nullable Duration retryAfter, DoubleSupplier random) {
    if (retryAfter != null && !retryAfter.isNegative()) {
      return retryAfter.compareTo(max) > 0 ? max : retryAfter;
    }
    long ceiling = base.toMillis() << Math.min(Math.max(attempt - 1, 0), 20);
    long capped = Math.min(ceiling, max.toMillis());
    long half = capped / 2;
    return Duration.ofMillis(half + (long) (random.getAsDouble() * (capped - half + 1)));
  }
}
