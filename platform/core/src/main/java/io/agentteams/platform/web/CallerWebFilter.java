package io.agentteams.platform.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.problem.ProblemException;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Verifies the internal caller token on every {@code /api/} request of a service and exposes the
 * {@link Caller} to handlers. A service never trusts a bare header: without a valid token signed
 * with one of the gateway's keys (of which the service holds only the public halves) the request is
 * answered 401.
 */
public final class CallerWebFilter implements WebFilter, Ordered {

  /** The exchange attribute that holds the verified caller. */
  public static final String CALLER_ATTRIBUTE = Caller.class.getName();

  private final CallerTokens tokens;

  public CallerWebFilter(CallerTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (!exchange.getRequest().getPath().value().startsWith("/api/")) {
      return chain.filter(exchange);
    }
    Caller caller;
    try {
      caller =
          tokens.verify(
              bearer(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION)));
    } catch (ProblemException problem) {
      return ProblemResponses.write(exchange, problem);
    }
    exchange.getAttributes().put(CALLER_ATTRIBUTE, caller);
    return chain.filter(exchange);
  }

  private static String bearer(String header) {
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
