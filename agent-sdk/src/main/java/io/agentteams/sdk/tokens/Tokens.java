package io.agentteams.sdk.tokens;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.HttpTransport;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** Tokens the owner mints: for an agent's worker, and for one member of a team. */
public final class Tokens {

  private final HttpTransport http;

  public Tokens(HttpTransport http) {
    this.http = http;
  }

  /** A worker token: streams and reports on the jobs of that one agent of the owner. */
  public IssuedToken worker(String agentId) {
    return Objects.requireNonNull(
        http.call(
            "POST", ApiPath.of("/api/v1/agents/{}/tokens", agentId), Map.of(), IssuedToken.class));
  }

  /** A member token: acts as exactly that member of that team (its member tools). */
  public IssuedToken member(UUID teamId, String member) {
    return Objects.requireNonNull(
        http.call(
            "POST",
            ApiPath.of("/api/v1/teams/{}/members/{}/tokens", teamId, member),
            Map.of(),
            IssuedToken.class));
  }

  /**
   * A development owner token from the embedded stack's {@code /dev/tokens} (which exists only
   * there; no deployment serves it).
   */
  public IssuedToken development(String ownerId) {
    return Objects.requireNonNull(
        http.call(
            "POST", ApiPath.of("/dev/tokens"), Map.of("owner_id", ownerId), IssuedToken.class));
  }
}
