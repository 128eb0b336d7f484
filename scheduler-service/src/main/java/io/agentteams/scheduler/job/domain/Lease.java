package io.agentteams.scheduler.job.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The right to report on a job, handed to one runtime with one offer. A newer offer replaces the
 * token, so reports carrying an older one are refused (fencing).
 *
 * @param token the secret the runtime sends with every report
 * @param expiresAt when the lease lapses unless a report renews it
 * @param ttl how much each report extends it by
 * @param holder the worker the lease was handed to, when known
 */
public record Lease(String token, Instant expiresAt, Duration ttl, @Nullable String holder) {

  public Lease {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(expiresAt, "expires at");
    Objects.requireNonNull(ttl, "ttl");
  }

  public boolean expiredAt(Instant now) {
    return expiresAt.isBefore(now);
  }

  public Lease renewedAt(Instant now) {
    return new Lease(token, now.plus(ttl), ttl, holder);
  }

  /** The same lease, lapsing at {@code at} instead. */
  public Lease lapsingAt(Instant at) {
    return new Lease(token, at, ttl, holder);
  }
}
