package io.agentteams.gateway.identity;

import io.agentteams.gateway.limits.EdgeRateLimits;
import io.agentteams.gateway.limits.RateLimitFilter;
import io.agentteams.gateway.limits.StreamSlots;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.CallerWebFilter;
import io.agentteams.platform.web.ProblemResponses;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

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
  private final EdgeRateLimits limits;
  private final RevokedTokens revoked;
  private final StreamSlots streams;
  private final JobTokenLiveness jobs;

  public EdgeAuthenticationFilter(
      EdgeAuthenticator authenticator,
      EdgeRateLimits limits,
      RevokedTokens revoked,
      StreamSlots streams,
      JobTokenLiveness jobs) {
    this.jobs = jobs;
    this.revoked = revoked;
    this.streams = streams;
    this.authenticator = authenticator;
    this.limits = limits;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (!exchange.getRequest().getPath().value().startsWith("/api/")) {
      return chain.filter(exchange);
    }
    boolean counted = !RateLimitFilter.isLoopbackCall(exchange);
    String token = bearer(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
    String tokenId = EdgeTokens.tokenId(token);
    return authenticator
        .authenticate(token)
        // A revoked token was refused there (EdgeTokens); a job-scoped member token acts only
        // while its job is live, on every use.
        .flatMap(jobs::admit)
        .onErrorResume(
            ProblemException.class,
            problem -> {
              // Refused tokens count against the client address, like requests without one.
              Mono<Void> overBudget = counted ? limits.refuseOverAnonymousBudget(exchange) : null;
              return (overBudget != null ? overBudget : ProblemResponses.write(exchange, problem))
                  .then(Mono.<Caller>empty());
            })
        .flatMap(
            caller -> {
              Mono<Void> overBudget = counted ? limits.refuseOverBudget(exchange, caller) : null;
              if (overBudget != null) {
                return overBudget;
              }
              if (caller instanceof Caller.TeamAgent agent
                  && !teamAgentMayCall(agent, exchange.getRequest().getPath().value())) {
                return ProblemResponses.write(
                    exchange,
                    new ProblemException(
                        ProblemException.Kind.NOT_FOUND,
                        "not-found",
                        "nothing here answers a team's A2A token"));
              }
              Mono<Void> handled = chain.filter(authenticated(exchange, caller));
              if (StreamSlots.isStream(exchange)) {
                handled = streams.hold(exchange, caller, handled);
              }
              // A request still in flight when its token is revoked (an open stream above all)
              // ends there: its connection is closed, whatever is writing to it.
              return tokenId == null
                  ? handled
                  : handled.takeUntilOther(
                      revoked.revocation(tokenId).doOnSuccess(none -> close(exchange)));
            });
  }

  /**
   * The exchange without the client's public token, which never travels further: the caller rides
   * along as an attribute, and a routed request is given an internal token for the one service its
   * route leads to ({@link io.agentteams.gateway.routing.ServiceTokenFilter}).
   */
  private ServerWebExchange authenticated(ServerWebExchange exchange, Caller caller) {
    String publicToken =
        bearer(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
    ServerWebExchange authenticated =
        exchange
            .mutate()
            .request(request -> request.headers(h -> h.remove(HttpHeaders.AUTHORIZATION)))
            .build();
    authenticated.getAttributes().put(CallerWebFilter.CALLER_ATTRIBUTE, caller);
    authenticated.getAttributes().put(PUBLIC_TOKEN_ATTRIBUTE, publicToken);
    return authenticated;
  }

  /** Closes the client's connection under the exchange (a stream's, which would otherwise stay). */
  private static void close(ServerWebExchange exchange) {
    Object response = ServerHttpResponseDecorator.getNativeResponse(exchange.getResponse());
    if (response instanceof Connection connection) {
      connection.dispose();
    }
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
