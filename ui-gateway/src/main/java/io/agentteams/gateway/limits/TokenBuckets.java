package io.agentteams.gateway.limits;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One token bucket per key: {@code burst} requests at once, refilled at {@code rate} per second.
 * Kept in this replica's memory; with several replicas each enforces its own share.
 */
public final class TokenBuckets {

  /** Whether a request may go ahead and, if not, how long until it could. */
  public record Decision(boolean allowed, long retryAfterSeconds) {}

  private final double rate;
  private final int burst;
  private final Clock clock;
  private final Map<String, double[]> buckets;

  public TokenBuckets(double rate, int burst, int maxKeys, Clock clock) {
    this.rate = rate;
    this.burst = burst;
    this.clock = clock;
    this.buckets =
        new LinkedHashMap<>(1024, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
            return size() > maxKeys;
          }
        };
  }

  /** Takes one request's worth from the key's bucket if it holds one. */
  public synchronized Decision take(String key) {
    double now = clock.millis() / 1000.0;
    // bucket[0] = tokens left, bucket[1] = when they were counted
    double[] bucket = buckets.computeIfAbsent(key, k -> new double[] {burst, now});
    bucket[0] = Math.min(burst, bucket[0] + (now - bucket[1]) * rate);
    bucket[1] = now;
    if (bucket[0] >= 1) {
      bucket[0] -= 1;
      return new Decision(true, 0);
    }
    return new Decision(false, (long) Math.ceil((1 - bucket[0]) / rate));
  }
}
