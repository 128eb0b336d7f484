package io.agentteams.platform.web;

import io.agentteams.platform.problem.ProblemException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** Writes a Problem Details response from a filter, where no controller advice applies. */
public final class ProblemResponses {

  private static final JsonMapper mapper = JsonMapper.builder().build();

  private ProblemResponses() {}

  /** Ends the exchange with the problem as {@code application/problem+json}. */
  public static Mono<Void> write(ServerWebExchange exchange, ProblemException problem) {
    ProblemDetail detail =
        ProblemDetailsAdvice.body(problem, exchange.getRequest().getPath().value());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", detail.getType().toString());
    body.put("title", detail.getTitle());
    body.put("status", detail.getStatus());
    body.put("detail", detail.getDetail());
    body.put("instance", String.valueOf(detail.getInstance()));
    if (detail.getProperties() != null) {
      body.putAll(detail.getProperties());
    }
    var response = exchange.getResponse();
    response.setStatusCode(HttpStatus.valueOf(problem.kind().status()));
    response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
    if (problem.kind() == ProblemException.Kind.UNAUTHENTICATED) {
      response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
    }
    byte[] bytes = mapper.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
    DataBuffer buffer = response.bufferFactory().wrap(bytes);
    return response.writeWith(Mono.just(buffer));
  }
}
