package io.agentteams.gateway.identity;

import io.agentteams.gateway.routing.InternalCalls;
import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.platform.identity.Caller;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Hands out the tokens owners mint for their agents, members and teams: each is recorded in
 * team-service's token registry (so its owner can list and revoke it) before it is handed out, and
 * a token the registry does not know is never handed out.
 */
@Component
public class IssuedTokens {

  private final EdgeTokens tokens;
  private final InternalCalls calls;
  private final ServiceEndpoints services;

  public IssuedTokens(EdgeTokens tokens, InternalCalls calls, ServiceEndpoints services) {
    this.tokens = tokens;
    this.calls = calls;
    this.services = services;
  }

  /**
   * Mints a token for {@code subject}, records it as {@code requester} with its kind and subject
   * ({@code what}: {@code kind} and {@code agent_id}, or {@code team_id} and perhaps {@code
   * member}), then hands it out.
   */
  public Mono<TokenResponse> issue(
      Caller requester, Caller subject, Map<String, String> what, Duration ttl) {
    EdgeTokens.Issued issued = tokens.mint(subject, ttl);
    Map<String, Object> registration = new LinkedHashMap<>(what);
    registration.put("id", issued.id().toString());
    registration.put("issued_at", issued.issuedAt().toString());
    registration.put("expires_at", issued.expiresAt().toString());
    return calls
        .post(
            requester,
            services.team(),
            "/api/internal/v1/tokens",
            registration,
            "token",
            issued.id())
        .then(
            Mono.fromSupplier(() -> new TokenResponse(issued.token(), "Bearer", ttl.toSeconds())));
  }
}
