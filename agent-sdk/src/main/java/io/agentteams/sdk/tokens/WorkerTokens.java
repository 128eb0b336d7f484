package io.agentteams.sdk.tokens;

import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.HttpTransport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A worker token that renews itself: worker tokens are short-lived (an hour by default), so before
 * its token expires the supplier trades it, while still valid, for a fresh one of the same agent
 * ({@code POST /api/v1/agents/{id}/tokens/refresh}). It renews once a fifth of the token's life
 * remains, and at once when the API refused the token. A revoked token, or a deleted agent's, gets
 * no renewal: the calls then fail as unauthenticated and the worker stops taking jobs.
 */
public final class WorkerTokens implements TokenSupplier {

  private final HttpTransport http;
  private final String agentId;
  private final Clock clock;
  private String current;
  private Instant renewAt;

  private WorkerTokens(HttpTransport http, String agentId, IssuedToken first, Clock clock) {
    this.http = http;
    this.agentId = agentId;
    this.clock = clock;
    adopt(first);
  }

  /**
   * A renewing supplier starting from a worker token already minted.
   *
   * @param http the gateway to renew at (its own token is not used)
   */
  public static WorkerTokens from(
      HttpTransport http, String agentId, IssuedToken first, Clock clock) {
    return new WorkerTokens(http, agentId, first, clock);
  }

  @Override
  public synchronized String token() {
    if (!clock.instant().isBefore(renewAt)) {
      renew();
    }
    return current;
  }

  @Override
  public synchronized void rejected(String token) {
    if (token.equals(current)) {
      renew();
    }
  }

  /**
   * Trades the current token for a fresh one. A failed renewal keeps the current token: the call
   * made with it then succeeds while it lives, or fails as the API answers (revoked, expired).
   */
  private void renew() {
    try {
      IssuedToken fresh =
          Objects.requireNonNull(
              http.withTokens(TokenSupplier.of(current))
                  .call(
                      "POST",
                      ApiPath.of("/api/v1/agents/{}/tokens/refresh", agentId),
                      Map.of(),
                      IssuedToken.class));
      adopt(fresh);
    } catch (RuntimeException e) {
      // Tried again at the next call rather than on every one: a fifth of the remaining wait.
      renewAt = clock.instant().plusSeconds(1);
    }
  }

  private void adopt(IssuedToken token) {
    current = token.accessToken();
    Duration life = Duration.ofSeconds(Math.max(1, token.expiresIn()));
    renewAt = clock.instant().plus(life.minus(life.dividedBy(5)));
  }
}
