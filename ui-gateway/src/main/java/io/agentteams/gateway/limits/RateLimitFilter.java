package io.agentteams.gateway.limits;

import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Runs before authentication: recognises the gateway's own calls back through its API ({@link
 * LoopbackCalls}), which were counted as the client's request already and are not counted again,
 * removes the mark from every request, and limits the unauthenticated development token endpoint
 * per client address. The {@code /api/} budgets are taken where the caller is known: by owner once
 * authenticated, by client address when authentication fails ({@link EdgeRateLimits}).
 */
@Component
public class RateLimitFilter implements WebFilter, Ordered {

  /** The exchange attribute set on the gateway's own calls back through its API. */
  public static final String LOOPBACK_ATTRIBUTE = "agentteams.loopback-call";

  private final EdgeRateLimits limits;
  private final LoopbackCalls loopback;

  public RateLimitFilter(EdgeRateLimits limits, LoopbackCalls loopback) {
    this.limits = limits;
    this.loopback = loopback;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange original, WebFilterChain chain) {
    boolean loopbackCall = loopback.isLoopbackCall(original.getRequest());
    // The mark never travels further, whoever sent it.
    ServerWebExchange exchange =
        original.getRequest().getHeaders().containsHeader(LoopbackCalls.HEADER)
            ? original
                .mutate()
                .request(request -> request.headers(h -> h.remove(LoopbackCalls.HEADER)))
                .build()
            : original;
    if (loopbackCall) {
      exchange.getAttributes().put(LOOPBACK_ATTRIBUTE, Boolean.TRUE);
      return chain.filter(exchange);
    }
    if (exchange.getRequest().getPath().value().startsWith("/dev/")) {
      Mono<Void> refused = limits.refuseOverAnonymousBudget(exchange);
      if (refused != null) {
        return refused;
      }
    }
    return chain.filter(exchange);
  }

  /** Whether the exchange is one of the gateway's own calls back through its API. */
  public static boolean isLoopbackCall(ServerWebExchange exchange) {
    return Boolean.TRUE.equals(exchange.getAttribute(LOOPBACK_ATTRIBUTE));
  }

  @Override
  public int getOrder() {
    // Before authentication (HIGHEST_PRECEDENCE + 20), which takes the /api/ budgets.
    return Ordered.HIGHEST_PRECEDENCE + 15;
  }
}
