package io.agentteams.gateway.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One Bucket4j token bucket per key: {@code burst} requests at once, refilled greedily at {@code
 * rate} per second. A bucket is kept only until it would be full again (Caffeine expires it then):
 * a full bucket is the same as a new one, so dropping it loses nothing, and no bucket is ever
 * pushed out to make room. The table holds at most {@code maxKeys} buckets; when a flood of new
 * keys fills it, further new keys are refused until buckets refill, while every key already kept
 * keeps its state. Kept in this replica's memory; with several replicas each enforces its own
 * share.
 */
final class RequestBudgets {

  /** Whether a request may go ahead and, if not, how long until it could. */
  record Decision(boolean allowed, long retryAfterSeconds) {}

  private final Bandwidth bandwidth;
  private final int burst;
  private final long refillNanos;
  private final int maxKeys;
  private final Cache<String, Bucket> buckets;

  RequestBudgets(double rate, int burst, int maxKeys) {
    this.burst = burst;
    this.maxKeys = maxKeys;
    this.refillNanos = Math.max(1, Math.round(1_000_000_000d / rate));
    this.bandwidth =
        Bandwidth.builder()
            .capacity(burst)
            .refillGreedy(1, Duration.ofNanos(refillNanos))
            .initialTokens(burst)
            .build();
    // Maintenance (expiry) runs on the caller's thread: nothing lingers past its time.
    this.buckets =
        Caffeine.newBuilder()
            .executor(Runnable::run)
            .expireAfter(
                new Expiry<String, Bucket>() {
                  @Override
                  public long expireAfterCreate(String key, Bucket bucket, long now) {
                    return untilFull(bucket);
                  }

                  @Override
                  public long expireAfterUpdate(
                      String key, Bucket bucket, long now, long currentDuration) {
                    return untilFull(bucket);
                  }

                  @Override
                  public long expireAfterRead(
                      String key, Bucket bucket, long now, long currentDuration) {
                    return currentDuration;
                  }
                })
            .build();
  }

  /** Takes one request from the key's bucket. */
  Decision take(String key) {
    AtomicReference<ConsumptionProbe> probe = new AtomicReference<>();
    Bucket kept =
        buckets
            .asMap()
            .compute(
                key,
                (k, bucket) -> {
                  if (bucket == null) {
                    if (buckets.estimatedSize() >= maxKeys) {
                      return null; // full: refuse the newcomer, push out no one
                    }
                    bucket = Bucket.builder().addLimit(bandwidth).build();
                  }
                  probe.set(bucket.tryConsumeAndReturnRemaining(1));
                  return bucket;
                });
    if (kept == null) {
      return new Decision(false, 1);
    }
    ConsumptionProbe result = probe.get();
    if (result.isConsumed()) {
      return new Decision(true, 0);
    }
    long seconds = Duration.ofNanos(result.getNanosToWaitForRefill()).toSeconds();
    return new Decision(false, seconds + 1);
  }

  /** Buckets currently kept (none of them full). */
  long size() {
    buckets.cleanUp();
    return buckets.estimatedSize();
  }

  private long untilFull(Bucket bucket) {
    long missing = Math.max(0, burst - bucket.getAvailableTokens());
    return Math.max(1, missing) * refillNanos;
  }
}
