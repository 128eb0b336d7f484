package io.agentteams.platform.web;

import io.agentteams.platform.problem.ProblemException;
import java.net.URI;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.codec.DecodingException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.bind.support.WebExchangeBindException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;

/** Renders every error of the API as Problem Details ({@code application/problem+json}). */
@RestControllerAdvice
public class ProblemDetailsAdvice {

  private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

  /** The {@code type} URI of a problem code. */
  public static URI type(String code) {
    return URI.create("urn:agentteams:problem:" + code);
  }

  /** A Problem Details body for a problem exception. */
  public static ProblemDetail body(ProblemException problem, @Nullable String instance) {
    ProblemDetail body = ProblemDetail.forStatus(problem.kind().status());
    body.setType(type(problem.code()));
    body.setTitle(problem.kind().title());
    body.setDetail(problem.detail());
    body.setProperty("code", problem.code());
    if (instance != null) {
      body.setInstance(URI.create(instance));
    }
    for (Map.Entry<String, @Nullable Object> property : problem.properties().entrySet()) {
      body.setProperty(property.getKey(), property.getValue());
    }
    return body;
  }

  @ExceptionHandler(ProblemException.class)
  public ResponseEntity<ProblemDetail> problem(
      ProblemException problem, ServerWebExchange exchange) {
    return respond(body(problem, exchange.getRequest().getPath().value()));
  }

  @ExceptionHandler(WebExchangeBindException.class)
  public ResponseEntity<ProblemDetail> binding(
      WebExchangeBindException error, ServerWebExchange exchange) {
    ProblemDetail body = ProblemDetail.forStatus(HttpStatus.BAD_REQUEST);
    body.setType(type("invalid-request"));
    body.setTitle("Invalid request");
    body.setDetail(
        error.getFieldErrors().stream()
            .map(f -> f.getField() + ": " + f.getDefaultMessage())
            .reduce((a, b) -> a + "; " + b)
            .orElse("the request body is invalid"));
    body.setProperty("code", "invalid-request");
    return respond(body);
  }

  @ExceptionHandler({ServerWebInputException.class, DecodingException.class})
  public ResponseEntity<ProblemDetail> unreadable(Exception error, ServerWebExchange exchange) {
    ProblemDetail body = ProblemDetail.forStatus(HttpStatus.BAD_REQUEST);
    body.setType(type("unreadable-request"));
    body.setTitle("Invalid request");
    String reason =
        error instanceof ServerWebInputException input && input.getReason() != null
            ? input.getReason()
            : "the request could not be read";
    body.setDetail(reason);
    body.setProperty("code", "unreadable-request");
    return respond(body);
  }

  private static ResponseEntity<ProblemDetail> respond(ProblemDetail body) {
    if (body.getStatus() >= 500) {
      log.error("request failed: {}", body.getDetail());
    }
    return ResponseEntity.status(body.getStatus())
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(body);
  }
}
