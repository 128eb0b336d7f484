package io.agentteams.sdk.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential back-off with full jitter: the n-th wait is a random time up to {@code initial *
 * 2^n}, capped at {@code max}, so many clients that lost the same server do not come back at the
 * same instant.
 *
 * @param initial the ceiling of the first wait
 * @param max the ceiling of every wait
 */
public record Backoff(Duration initial, Duration max) {

  public Backoff {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("need 0 < initial <= max");
    }
  }

  /** The wait before attempt {@code attempt} (0 for the first retry). */
  public Duration delay(int attempt) {
    long ceiling = ceiling(attempt).toMillis();
    // Never zero: a server that refuses at once must not be hammered in a tight loop.
    long floor = Math.min(ceiling, Math.max(1, initial.toMillis() / 4));
    return Duration.ofMillis(ThreadLocalRandom.current().nextLong(floor, ceiling + 1));
  }

  /** The ceiling of the wait before attempt {@code attempt}. */
  public Duration ceiling(int attempt) {
    int shift = Math.min(Math.max(attempt, 0), 30);
    long millis = initial.toMillis() << shift;
    return millis <= 0 || millis > max.toMillis() ? max : Duration.ofMillis(millis);
  }
}
