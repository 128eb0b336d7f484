package io.agentteams.gateway.caching;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import org.reactivestreams.Publisher;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Gives every successful JSON read of the public API an ETag (a digest of the representation) and
 * answers {@code 304 Not Modified} when the client's {@code If-None-Match} already names it. A
 * client polling a team, its board, state or activity then pays nothing when nothing changed.
 */
@Component
public class EtagFilter implements WebFilter, Ordered {

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (exchange.getRequest().getMethod() != HttpMethod.GET
        || !exchange.getRequest().getPath().value().startsWith("/api/")
        || exchange.getRequest().getHeaders().getAccept().contains(MediaType.TEXT_EVENT_STREAM)) {
      return chain.filter(exchange);
    }
    List<String> ifNoneMatch = exchange.getRequest().getHeaders().getIfNoneMatch();
    ServerHttpResponse response = exchange.getResponse();
    ServerHttpResponseDecorator tagging =
        new ServerHttpResponseDecorator(response) {
          @Override
          public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
            MediaType type = getHeaders().getContentType();
            boolean json =
                type != null
                    && (MediaType.APPLICATION_JSON.isCompatibleWith(type)
                        || type.getSubtype().endsWith("+json"));
            HttpStatus status =
                getStatusCode() == null
                    ? HttpStatus.OK
                    : HttpStatus.resolve(getStatusCode().value());
            if (!json
                || status == null
                || !status.is2xxSuccessful()
                || type.getSubtype().equals("problem+json")) {
              return super.writeWith(body);
            }
            return DataBufferUtils.join(Flux.from(body))
                .flatMap(
                    joined -> {
                      byte[] bytes = new byte[joined.readableByteCount()];
                      joined.read(bytes);
                      DataBufferUtils.release(joined);
                      String etag = "W/\"" + digest(bytes) + "\"";
                      getHeaders().setETag(etag);
                      if (ifNoneMatch.contains(etag) || ifNoneMatch.contains("*")) {
                        setStatusCode(HttpStatus.NOT_MODIFIED);
                        getHeaders().remove(HttpHeaders.CONTENT_LENGTH);
                        getHeaders().remove(HttpHeaders.CONTENT_TYPE);
                        return super.setComplete();
                      }
                      getHeaders().setContentLength(bytes.length);
                      return super.writeWith(Mono.just(bufferFactory().wrap(bytes)));
                    });
          }
        };
    return chain.filter(exchange.mutate().response(tagging).build());
  }

  private static String digest(byte[] bytes) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 27);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 30;
  }
}
