package io.agentteams.gateway.routing;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.CallerWebFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Gives a routed request the caller's internal token for the one service its route leads to, once
 * the route is known (the edge has already taken the client's own token off the request).
 */
@Component
public class ServiceTokenFilter implements GlobalFilter, Ordered {

  private final ServiceTokens tokens;

  public ServiceTokenFilter(ServiceTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
    Caller caller = exchange.getAttribute(CallerWebFilter.CALLER_ATTRIBUTE);
    if (route == null || caller == null) {
      return chain.filter(exchange);
    }
    String token = tokens.forRoute(route.getId(), route.getUri(), caller);
    return chain.filter(
        exchange
            .mutate()
            .request(
                request ->
                    request.headers(h -> h.set(HttpHeaders.AUTHORIZATION, "Bearer " + token)))
            .build());
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }
}
