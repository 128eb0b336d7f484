package io.agentteams.gateway.limits;

import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.ProblemResponses;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Refuses request bodies over the limit with 413: at once when the declared length says so, and
 * while streaming when a body without a length grows past it.
 */
@Component
public class BodySizeFilter implements WebFilter, Ordered {

  private final long maxBytes;

  public BodySizeFilter(EdgeLimitProperties limits) {
    this.maxBytes = limits.maxBodyBytes();
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    long declared = exchange.getRequest().getHeaders().getContentLength();
    if (declared > maxBytes) {
      return ProblemResponses.write(exchange, tooLarge(declared));
    }
    AtomicLong seen = new AtomicLong();
    ServerHttpRequestDecorator counted =
        new ServerHttpRequestDecorator(exchange.getRequest()) {
          @Override
          public Flux<DataBuffer> getBody() {
            return super.getBody()
                .map(
                    buffer -> {
                      if (seen.addAndGet(buffer.readableByteCount()) > maxBytes) {
                        DataBufferUtils.release(buffer);
                        throw tooLarge(seen.get());
                      }
                      return buffer;
                    });
          }
        };
    return chain
        .filter(exchange.mutate().request(counted).build())
        .onErrorResume(
            ProblemException.class,
            problem ->
                problem.kind() == ProblemException.Kind.PAYLOAD_TOO_LARGE
                        && !exchange.getResponse().isCommitted()
                    ? ProblemResponses.write(exchange, problem)
                    : Mono.error(problem));
  }

  private ProblemException tooLarge(long bytes) {
    return new ProblemException(
        ProblemException.Kind.PAYLOAD_TOO_LARGE,
        "body-too-large",
        "the request body exceeds " + maxBytes + " bytes",
        Map.of("limit", "agentteams.gateway.limits.max-body-bytes", "max", maxBytes));
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 16;
  }
}
