package io.agentteams.platform.web;

import io.agentteams.platform.problem.ProblemException;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.server.ServerErrorException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import org.springframework.web.util.DisconnectedClientHelper;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The last word on any error no controller advice answered: unknown paths (404), wrong methods
 * (405, with {@code Allow}), unsupported media types, a database or broker that cannot be reached
 * (503 with {@code Retry-After}), and anything unexpected (500, logged with a reference the body
 * repeats, nothing internal in the body). Every answer is Problem Details, so a client never has to
 * read two error formats. It runs before Spring Boot's own error handler.
 */
public final class ProblemExceptionHandler implements WebExceptionHandler, Ordered {

  private static final Logger log = LoggerFactory.getLogger(ProblemExceptionHandler.class);
  private static final ContextSnapshotFactory SNAPSHOTS = ContextSnapshotFactory.builder().build();

  /**
   * Failures that mean a dependency is down or the connection to it broke, named rather than
   * referenced so that this module needs neither the database driver nor Spring's data access.
   */
  private static final Set<String> UNAVAILABLE =
      Set.of(
          "io.r2dbc.spi.R2dbcNonTransientResourceException",
          "io.r2dbc.spi.R2dbcTransientException",
          "org.springframework.dao.DataAccessResourceFailureException",
          "org.springframework.dao.TransientDataAccessException",
          "org.springframework.transaction.CannotCreateTransactionException",
          "org.apache.kafka.common.errors.RetriableException",
          "org.apache.kafka.common.errors.TimeoutException",
          "reactor.netty.http.client.PrematureCloseException",
          "io.netty.channel.ConnectTimeoutException",
          "java.net.ConnectException",
          "java.nio.channels.ClosedChannelException",
          "java.util.concurrent.TimeoutException");

  private static final int MAX_CAUSES = 16;

  @Override
  public int getOrder() {
    // Before Spring Boot's DefaultErrorWebExceptionHandler (-1) and WebFlux's status handler (0).
    return -2;
  }

  @Override
  public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
    if (exchange.getResponse().isCommitted()) {
      // A stream already under way: nothing can be said any more but closing it.
      return Mono.error(error);
    }
    if (DisconnectedClientHelper.isClientDisconnectedException(error)) {
      // A connection broke: the caller's (it gave up waiting, or the gateway's call was cancelled
      // with its client's) or a dependency's (a service killed under a call the gateway routes,
      // "connection reset by peer"). The two cannot be told apart here, so it is answered as an
      // unavailable dependency, never with nothing (an empty 200): a caller who hung up never
      // reads the answer, one still waiting learns to retry. Not an unexpected failure either
      // way, so not logged as an error.
      log.debug(
          "{} {}: a connection broke ({})",
          exchange.getRequest().getMethod(),
          exchange.getRequest().getPath(),
          error.toString());
      exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
      return ProblemResponses.write(exchange, unavailable()).onErrorResume(gone -> Mono.empty());
    }
    return Mono.deferContextual(context -> answer(exchange, error, context));
  }

  private Mono<Void> answer(ServerWebExchange exchange, Throwable error, ContextView context) {
    ProblemException problem;
    // The lines this logs carry the request's trace and span ids.
    try (ContextSnapshot.Scope trace = SNAPSHOTS.setThreadLocalsFrom(context)) {
      problem = problemOf(exchange, error);
    }
    if (error instanceof ErrorResponse response) {
      HttpHeaders headers = response.getHeaders();
      headers.forEach((name, values) -> exchange.getResponse().getHeaders().put(name, values));
    }
    if (problem.kind() == ProblemException.Kind.UNAVAILABLE) {
      exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
    }
    return ProblemResponses.write(exchange, problem);
  }

  private static ProblemException problemOf(ServerWebExchange exchange, Throwable error) {
    if (error instanceof ProblemException problem) {
      return problem;
    }
    if (error instanceof ServerErrorException missing
        && missing.getMethodParameter() != null
        && missing.getMethodParameter().hasParameterAnnotation(PathVariable.class)) {
      // A path segment that decodes to nothing (e.g. "%20") leaves its variable "missing", which
      // the framework reports as its own fault; it is the request's.
      return WebProblems.invalid(
          "invalid-path",
          "the path's " + missing.getMethodParameter().getParameterName() + " is missing or blank");
    }
    if (error instanceof ErrorResponse response && response.getStatusCode().is4xxClientError()) {
      String detail =
          response.getStatusCode().value() == 404
              ? "there is nothing at " + exchange.getRequest().getPath().value()
              : response.getBody().getDetail();
      return clientError(response.getStatusCode(), detail);
    }
    String request = exchange.getRequest().getMethod() + " " + exchange.getRequest().getPath();
    Throwable unavailable = unavailableCause(error);
    if (unavailable != null) {
      log.warn("{} failed, a dependency is unavailable: {}", request, describe(unavailable));
      return unavailable();
    }
    String reference = UUID.randomUUID().toString();
    log.error("{} failed unexpectedly (reference {})", request, reference, error);
    return new ProblemException(
        ProblemException.Kind.INTERNAL,
        "internal-error",
        "the request failed unexpectedly; the operators can find it by its reference",
        Map.of("reference", reference));
  }

  private static ProblemException unavailable() {
    return new ProblemException(
        ProblemException.Kind.UNAVAILABLE,
        "unavailable",
        "a service this request needs cannot be reached right now; retry shortly");
  }

  /** A 4xx from the framework (no route, wrong method, unreadable body) in our own terms. */
  private static ProblemException clientError(HttpStatusCode status, String detail) {
    HttpStatus known = HttpStatus.resolve(status.value());
    String code =
        known == null
            ? "client-error"
            : known.getReasonPhrase().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    ProblemException.Kind kind =
        switch (status.value()) {
          case 401 -> ProblemException.Kind.UNAUTHENTICATED;
          case 403 -> ProblemException.Kind.FORBIDDEN;
          case 404 -> ProblemException.Kind.NOT_FOUND;
          case 405 -> ProblemException.Kind.METHOD_NOT_ALLOWED;
          case 406 -> ProblemException.Kind.NOT_ACCEPTABLE;
          case 409 -> ProblemException.Kind.CONFLICT;
          case 413 -> ProblemException.Kind.PAYLOAD_TOO_LARGE;
          case 415 -> ProblemException.Kind.UNSUPPORTED_MEDIA_TYPE;
          case 429 -> ProblemException.Kind.TOO_MANY_REQUESTS;
          default -> ProblemException.Kind.INVALID;
        };
    String reason = known == null ? "the request was refused" : known.getReasonPhrase();
    return new ProblemException(kind, code, detail == null || detail.isBlank() ? reason : detail);
  }

  private static Throwable unavailableCause(Throwable error) {
    Throwable current = error;
    for (int i = 0; current != null && i < MAX_CAUSES; i++) {
      for (Class<?> type = current.getClass(); type != null; type = type.getSuperclass()) {
        if (UNAVAILABLE.contains(type.getName())) {
          return current;
        }
      }
      current = current.getCause() == current ? null : current.getCause();
    }
    return null;
  }

  private static String describe(Throwable error) {
    return error.getClass().getSimpleName() + ": " + error.getMessage();
  }
}
