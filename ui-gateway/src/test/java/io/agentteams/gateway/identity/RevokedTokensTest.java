package io.agentteams.gateway.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

/**
 * A revoked token is refused from then on and ends what waits on it, already revoked or later; a
 * revoked token is forgotten once it would have expired anyway.
 */
class RevokedTokensTest {

  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  @Test
  void aRevocationEndsWhatWaitsOnThatTokenAloneAndIsSeenByLaterWaitersToo() {
    RevokedTokens revoked =
        new RevokedTokens(Clock.fixed(NOW, ZoneOffset.UTC), new SimpleMeterRegistry());
    AtomicBoolean firstEnded = new AtomicBoolean();
    AtomicBoolean otherEnded = new AtomicBoolean();
    Disposable first =
        revoked.revocation("t1").subscribe(v -> {}, e -> {}, () -> firstEnded.set(true));
    Disposable other =
        revoked.revocation("t2").subscribe(v -> {}, e -> {}, () -> otherEnded.set(true));

    revoked.revoke("t1", NOW.plus(Duration.ofHours(1)));

    assertThat(firstEnded).isTrue();
    assertThat(otherEnded).isFalse();
    assertThat(revoked.isRevoked("t1")).isTrue();
    assertThat(revoked.isRevoked("t2")).isFalse();
    // Waiting on a token revoked before: ends at once.
    assertThat(revoked.revocation("t1").block(Duration.ofSeconds(5))).isNull();
    first.dispose();
    other.dispose();
  }

  @Test
  void aTokenPastItsExpiryIsNotKept() {
    RevokedTokens revoked =
        new RevokedTokens(Clock.fixed(NOW, ZoneOffset.UTC), new SimpleMeterRegistry());
    revoked.revoke("expired", NOW.minusSeconds(1));
    revoked.revoke("alive", NOW.plusSeconds(60));
    assertThat(revoked.isRevoked("expired")).isFalse();
    assertThat(revoked.isRevoked("alive")).isTrue();
  }
}
