package io.agentteams.platform.web;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.problem.Refusal;
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

/**
 * Renders every error of the API as Problem Details ({@code application/problem+json}). This is
 * where a domain failure's kind becomes an HTTP status: the domain itself knows no transport.
 */
@RestControllerAdvice
public class ProblemDetailsAdvice {

  private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

  /** The {@code type} URI of a problem code. */
  public static URI type(String code) {
    return URI.create("urn:agentteams:problem:" + code);
  }

  /** How a domain failure of each kind is answered. */
  public static ProblemException.Kind answer(DomainFailure.Kind kind) {
    return switch (kind) {
      case INVALID -> ProblemException.Kind.INVALID;
      case FORBIDDEN -> ProblemException.Kind.FORBIDDEN;
      case NOT_FOUND -> ProblemException.Kind.NOT_FOUND;
      case CONFLICT -> ProblemException.Kind.CONFLICT;
      case LIMIT_EXCEEDED -> ProblemException.Kind.LIMIT_EXCEEDED;
      case UNAVAILABLE -> ProblemException.Kind.UNAVAILABLE;
    };
  }

  /** A Problem Details body for a problem of the HTTP edge. */
  public static ProblemDetail body(ProblemException problem, @Nullable String instance) {
    return body(problem.kind(), problem, instance);
  }

  /** A Problem Details body for a domain failure. */
  public static ProblemDetail body(DomainFailure failure, @Nullable String instance) {
    return body(answer(failure.kind()), failure, instance);
  }

  private static ProblemDetail body(
      ProblemException.Kind kind, Refusal refusal, @Nullable String instance) {
    ProblemDetail body = ProblemDetail.forStatus(kind.status());
    body.setType(type(refusal.code()));
    body.setTitle(kind.title());
    body.setDetail(refusal.detail());
    body.setProperty("code", refusal.code());
    if (instance != null) {
      try {
        body.setInstance(URI.create(instance));
      } catch (IllegalArgumentException notAUri) {
        // A path no URI can hold (bytes a client sent as they were) is left out, not echoed.
      }
    }
    for (Map.Entry<String, @Nullable Object> parameter : refusal.parameters().entrySet()) {
      body.setProperty(parameter.getKey(), parameter.getValue());
    }
    return body;
  }

  @ExceptionHandler(ProblemException.class)
  public ResponseEntity<ProblemDetail> problem(
      ProblemException problem, ServerWebExchange exchange) {
    return respond(body(problem, exchange.getRequest().getPath().value()));
  }

  @ExceptionHandler(DomainFailure.class)
  public ResponseEntity<ProblemDetail> failure(DomainFailure failure, ServerWebExchange exchange) {
    return respond(body(failure, exchange.getRequest().getPath().value()));
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
    StrictJsonNumbers.Refused field = StrictJsonNumbers.field(error);
    String reason =
        field != null
            ? field.field() + " must be " + field.expected()
            : error instanceof ServerWebInputException input && input.getReason() != null
                ? input.getReason()
                : "the request could not be read";
    body.setDetail(reason);
    body.setProperty("code", "unreadable-request");
    if (field != null) {
      body.setProperty("field", field.field());
    }
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
