package io.agentteams.gateway.identity;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.IdentityProperties;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.CallerWebFilter;
import io.agentteams.platform.web.ProblemResponses;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Authenticates every {@code /api/} request at the edge and replaces the client's token with a
 * short-lived internal token the services verify. A client can therefore never present an internal
 * token of its own making, and a service never sees a public token.
 */
@Component
public class EdgeAuthenticationFilter implements WebFilter, Ordered {

  /**
   * The client's own bearer token, kept on the exchange for the gateway's own calls back through
   * its public API on the client's behalf (the MCP adapter); it never travels to a service.
   */
  public static final String PUBLIC_TOKEN_ATTRIBUTE = "agentteams.public-token";

  private final EdgeAuthenticator authenticator;
  private final CallerTokens internalTokens;
  private final IdentityProperties identity;

  public EdgeAuthenticationFilter(
      EdgeAuthenticator authenticator, CallerTokens internalTokens, IdentityProperties identity) {
    this.authenticator = authenticator;
    this.internalTokens = internalTokens;
    this.identity = identity;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (!exchange.getRequest().getPath().value().startsWith("/api/")) {
      return chain.filter(exchange);
    }
    return authenticator
        .authenticate(
            bearer(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION)))
        .flatMap(
            caller ->
                caller instanceof Caller.TeamAgent agent
                        && !teamAgentMayCall(agent, exchange.getRequest().getPath().value())
                    ? Mono.<Void>error(
                        new ProblemException(
                            ProblemException.Kind.NOT_FOUND,
                            "not-found",
                            "nothing here answers a team's A2A token"))
                    : chain.filter(authenticated(exchange, caller)))
        .onErrorResume(
            ProblemException.class, problem -> ProblemResponses.write(exchange, problem));
  }

  /** The exchange as the services see it: the caller's internal token instead of its public one. */
  private ServerWebExchange authenticated(ServerWebExchange exchange, Caller caller) {
    String publicToken =
        bearer(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
    String internal = internalTokens.issue(caller, identity.internalTokenTtl());
    ServerWebExchange authenticated =
        exchange
            .mutate()
            .request(
                request ->
                    request.headers(h -> h.set(HttpHeaders.AUTHORIZATION, "Bearer " + internal)))
            .build();
    authenticated.getAttributes().put(CallerWebFilter.CALLER_ATTRIBUTE, caller);
    authenticated.getAttributes().put(PUBLIC_TOKEN_ATTRIBUTE, publicToken);
    return authenticated;
  }

  /**
   * A team-scoped A2A token opens its team's agent card and A2A endpoint, and nothing else: it is
   * never let through to a service.
   */
  static boolean teamAgentMayCall(Caller.TeamAgent agent, String path) {
    String base = "/api/v1/teams/" + agent.teamId() + "/a2a";
    return path.equals(base) || path.equals(base + "/.well-known/agent-card.json");
  }

  private static String bearer(@Nullable String header) {
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return "";
    }
    return header.substring(7).trim();
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 20;
  }
}
