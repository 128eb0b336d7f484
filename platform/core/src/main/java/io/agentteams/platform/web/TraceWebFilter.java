package io.agentteams.platform.web;

import io.agentteams.platform.event.TraceContext;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Carries the W3C {@code traceparent} of a request into the Reactor context (starting a trace when
 * the request has none), so events written while handling it carry the same trace.
 */
public final class TraceWebFilter implements WebFilter, Ordered {

  public static final String HEADER = "traceparent";

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    String incoming = exchange.getRequest().getHeaders().getFirst(HEADER);
    TraceContext trace =
        TraceContext.isValid(incoming)
            ? new TraceContext(incoming, exchange.getRequest().getHeaders().getFirst("tracestate"))
            : TraceContext.newTrace();
    exchange.getResponse().getHeaders().set(HEADER, trace.traceparent());
    return chain
        .filter(exchange)
        .contextWrite(context -> context.put(TraceContext.CONTEXT_KEY, trace));
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 10;
  }
}
