package io.agentteams.gateway.routing;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.WebProblems;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Reads a service on behalf of a caller, whose identity travels as a short-lived internal token the
 * service verifies. A service's 404 stays a 404 naming what was not found; any other failure is the
 * service being unavailable, so the gateway never passes on half an answer.
 */
@Component
public class InternalCalls {

  private final WebClient web;
  private final ServiceTokens internalTokens;

  public InternalCalls(WebClient.Builder web, ServiceTokens internalTokens) {
    this.web = web.build();
    this.internalTokens = internalTokens;
  }

  /**
   * GETs {@code base + path} as the caller.
   *
   * @param what what a 404 says was not found
   * @param id the identifier a 404 names
   * @param uriVariables values for the path's placeholders
   */
  public Mono<JsonNode> get(
      Caller caller, URI base, String path, String what, Object id, Object... uriVariables) {
    return exchange(caller, base, what, id, web.get().uri(base + path, uriVariables));
  }

  /**
   * POSTs {@code body} as JSON to {@code base + path} as the caller; emits the answer's body, or
   * nothing when it has none.
   */
  public Mono<JsonNode> post(
      Caller caller,
      URI base,
      String path,
      Object body,
      String what,
      Object id,
      Object... uriVariables) {
    return exchange(
        caller,
        base,
        what,
        id,
        web.post()
            .uri(base + path, uriVariables)
            .contentType(MediaType.APPLICATION_JSON)
            .bodyValue(body));
  }

  /**
   * Sends {@code method path} (already encoded) with an optional JSON body to {@code base} as the
   * caller, for a caller that answers in words of its own (the team as an A2A agent): a 2xx
   * answer's body (an empty object when it has none); a 4xx the service's own status and detail as
   * a {@link ProblemException}; anything else the service being unavailable.
   */
  public Mono<JsonNode> send(
      Caller caller, URI base, HttpMethod method, String path, @Nullable Object body) {
    WebClient.RequestBodySpec request =
        web.method(method)
            // A URI, not a template: the path holds ids, which must not become a metric's tag.
            .uri(URI.create(base + path))
            .header("Authorization", "Bearer " + internalTokens.forService(base, caller));
    WebClient.RequestHeadersSpec<?> ready =
        body == null ? request : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body);
    return ready.exchangeToMono(
        response -> {
          int status = response.statusCode().value();
          if (response.statusCode().is2xxSuccessful()) {
            return response
                .bodyToMono(JsonNode.class)
                .defaultIfEmpty(JsonNodeFactory.instance.objectNode());
          }
          if (status < 400 || status >= 500) {
            return response.releaseBody().then(Mono.error(unavailable(base, status)));
          }
          return response
              .bodyToMono(JsonNode.class)
              .onErrorResume(unreadable -> Mono.empty())
              .defaultIfEmpty(JsonNodeFactory.instance.objectNode())
              .flatMap(
                  problem ->
                      Mono.error(
                          new ProblemException(
                              kind(status),
                              problem.path("code").asString("refused"),
                              problem.path("detail").asString("refused with " + status))));
        });
  }

  private static ProblemException.Kind kind(int status) {
    for (ProblemException.Kind kind : ProblemException.Kind.values()) {
      if (kind.status() == status) {
        return kind;
      }
    }
    return ProblemException.Kind.INVALID;
  }

  private static ProblemException unavailable(URI base, int status) {
    return new ProblemException(
        ProblemException.Kind.UNAVAILABLE,
        "service-unavailable",
        "the service at " + base.getHost() + ":" + base.getPort() + " answered " + status);
  }

  private Mono<JsonNode> exchange(
      Caller caller, URI base, String what, Object id, WebClient.RequestHeadersSpec<?> request) {
    String service = base.getHost() + ":" + base.getPort();
    return request
        .header("Authorization", "Bearer " + internalTokens.forService(base, caller))
        .exchangeToMono(
            response -> {
              if (response.statusCode().is2xxSuccessful()) {
                return response.bodyToMono(JsonNode.class);
              }
              if (response.statusCode().value() == HttpStatus.NOT_FOUND.value()) {
                return response.releaseBody().then(Mono.error(WebProblems.notFound(what, id)));
              }
              return response
                  .releaseBody()
                  .then(
                      Mono.error(
                          new ProblemException(
                              ProblemException.Kind.UNAVAILABLE,
                              "service-unavailable",
                              "the service at "
                                  + service
                                  + " answered "
                                  + response.statusCode().value())));
            });
  }
}
