package io.agentteams.platform.roster;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import reactor.core.publisher.Mono;

/**
 * Roster reads kept for a short time by one replica. Rosters change rarely (a team's members are
 * fixed when it is created; its status may change), and a caller's token already outlives a change
 * by its own lifetime, so a second of staleness weakens nothing while it saves a query on every
 * request that checks the caller (a claim, a heartbeat, a send). A team this replica has not
 * learned of yet is never kept, so it is found as soon as its {@code TeamCreated} is applied.
 */
public final class RosterCache {

  /** Expired entries are swept before the cache grows beyond this many teams. */
  static final int SWEEP_SIZE = 1024;

  private final Rosters rosters;
  private final long ttlNanos;
  private final LongSupplier nanoTime;
  private final Map<UUID, Cached> cache = new ConcurrentHashMap<>();

  /**
   * @param rosters the projection
   * @param ttl how long a roster read is reused; zero reads the projection every time
   */
  public RosterCache(Rosters rosters, Duration ttl) {
    this(rosters, ttl, System::nanoTime);
  }

  RosterCache(Rosters rosters, Duration ttl, LongSupplier nanoTime) {
    if (ttl.isNegative()) {
      throw new IllegalArgumentException("a roster cache time-to-live cannot be negative");
    }
    this.rosters = rosters;
    this.ttlNanos = ttl.toNanos();
    this.nanoTime = nanoTime;
  }

  private record Cached(Roster roster, long expiresAt) {}

  /** Like {@link Rosters#find}, from this replica's copy while it is younger than the ttl. */
  public Mono<Roster> find(UUID teamId) {
    if (ttlNanos <= 0) {
      return rosters.find(teamId);
    }
    Cached cached = cache.get(teamId);
    long now = nanoTime.getAsLong();
    if (cached != null && cached.expiresAt() - now > 0) {
      return Mono.just(cached.roster());
    }
    return rosters
        .find(teamId)
        .doOnNext(
            roster -> {
              if (cache.size() >= SWEEP_SIZE) {
                // Bounded by the teams active within one ttl: expired entries go before adding.
                cache.values().removeIf(c -> c.expiresAt() - now <= 0);
              }
              cache.put(teamId, new Cached(roster, now + ttlNanos));
            });
  }
}
