package io.agentteams.gateway.identity;

import io.agentteams.platform.token.TokenRevocations;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The tokens this replica refuses because their owner revoked them, learned from the revocation
 * topic ({@link RevocationConsumer}). A token stays here until it would have expired anyway, so the
 * set holds no more than the revoked tokens still alive. Requests in flight (open streams above
 * all) wait on {@link #revocation} and end when their token is revoked.
 */
@Component
public class RevokedTokens implements TokenRevocations {

  /** Gauge of the revoked tokens this replica still refuses. */
  public static final String KEPT = "agentteams.gateway.tokens.revoked";

  private final Map<String, Instant> revoked = new ConcurrentHashMap<>();
  private final Map<String, Set<Sinks.Empty<Void>>> waiting = new ConcurrentHashMap<>();
  private final Clock clock;

  public RevokedTokens(Clock clock, MeterRegistry meters) {
    this.clock = clock;
    Gauge.builder(KEPT, revoked, Map::size)
        .description("Revoked tokens still alive, which this gateway replica refuses")
        .register(meters);
  }

  /** Refuses the token from now on and ends the requests it has in flight. */
  public void revoke(String tokenId, Instant expiresAt) {
    Instant now = clock.instant();
    revoked.values().removeIf(expiry -> expiry.isBefore(now));
    if (expiresAt.isBefore(now)) {
      return;
    }
    revoked.put(tokenId, expiresAt);
    Set<Sinks.Empty<Void>> waiters = waiting.remove(tokenId);
    if (waiters != null) {
      waiters.forEach(Sinks.Empty::tryEmitEmpty);
    }
  }

  /** Whether the token was revoked. */
  @Override
  public boolean isRevoked(String tokenId) {
    return revoked.containsKey(tokenId);
  }

  /** Completes when the token is revoked (at once if it already is); never otherwise. */
  public Mono<Void> revocation(String tokenId) {
    return Mono.defer(
        () -> {
          Sinks.Empty<Void> waiter = Sinks.empty();
          waiting.computeIfAbsent(tokenId, id -> ConcurrentHashMap.newKeySet()).add(waiter);
          // Waiting first, then looking: a revocation between the two is seen either way.
          if (isRevoked(tokenId)) {
            waiter.tryEmitEmpty();
          }
          return waiter.asMono().doFinally(signal -> forget(tokenId, waiter));
        });
  }

  private void forget(String tokenId, Sinks.Empty<Void> waiter) {
    waiting.computeIfPresent(
        tokenId,
        (id, waiters) -> {
          waiters.remove(waiter);
          return waiters.isEmpty() ? null : waiters;
        });
  }
}
