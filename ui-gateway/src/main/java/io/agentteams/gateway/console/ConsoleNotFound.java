package io.agentteams.gateway.console;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * A console path that names no page is answered with an HTML page (titled, with a language and a
 * way back), not the API's Problem Details: a person followed a link there. Runs before the
 * platform's Problem Details handler; every other error, and every path outside the console, goes
 * on to it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class ConsoleNotFound implements WebExceptionHandler {

  private final Fragments fragments;

  public ConsoleNotFound(Fragments fragments) {
    this.fragments = fragments;
  }

  @Override
  public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
    String path = exchange.getRequest().getPath().pathWithinApplication().value();
    boolean console = path.equals("/console") || path.startsWith("/console/");
    if (!console
        || exchange.getResponse().isCommitted()
        || !(error instanceof ResponseStatusException status)
        || status.getStatusCode().value() != HttpStatus.NOT_FOUND.value()
        || path.startsWith("/console/assets/")) {
      return Mono.error(error);
    }
    String html =
        fragments.render(
            "problem",
            Map.of("message", "There is no console page at this address.", "heading", "Not found"));
    exchange.getResponse().setStatusCode(HttpStatus.NOT_FOUND);
    exchange.getResponse().getHeaders().setContentType(MediaType.TEXT_HTML);
    exchange.getResponse().getHeaders().set(HttpHeaders.CACHE_CONTROL, "no-store");
    return exchange
        .getResponse()
        .writeWith(
            Mono.just(
                exchange
                    .getResponse()
                    .bufferFactory()
                    .wrap(html.getBytes(StandardCharsets.UTF_8))));
  }
}
