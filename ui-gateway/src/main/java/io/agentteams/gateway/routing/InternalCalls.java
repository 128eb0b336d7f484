package io.agentteams.gateway.routing;

import io.agentteams.gateway.limits.LoopbackCalls;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.WebProblems;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The one way the gateway calls on a caller's behalf: a service directly, with the caller's
 * identity as a short-lived internal token for that service alone, or this gateway's own public API
 * (the MCP tools and the console), with the caller's edge credential, so that such a call meets the
 * very routes, checks, limits and errors a client's own call does and reaches the service the same
 * way. From a service, a 404 stays a 404 naming what was not found and any other failure is the
 * service being unavailable, so the gateway never passes on half an answer.
 */
@Component
public class InternalCalls implements ApplicationListener<WebServerInitializedEvent> {

  /**
   * The largest answer read: a console page reads a team's whole roster or run, which passes
   * WebClient's default of 256 KB.
   */
  private static final int MAX_ANSWER_BYTES = 8 * 1024 * 1024;

  private final WebClient web;
  private final ServiceTokens internalTokens;
  private final LoopbackCalls loopback;
  private volatile String gateway = "http://127.0.0.1:8080";

  public InternalCalls(
      WebClient.Builder web, ServiceTokens internalTokens, LoopbackCalls loopback) {
    this.web =
        web.clone()
            .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(MAX_ANSWER_BYTES))
            .build();
    this.internalTokens = internalTokens;
    this.loopback = loopback;
  }

  @Override
  public void onApplicationEvent(WebServerInitializedEvent event) {
    // The public API's own server, not the management server's.
    if (event.getApplicationContext().getServerNamespace() == null) {
      gateway = "http://127.0.0.1:" + event.getWebServer().getPort();
    }
  }

  /** Whether a call back through this gateway counts against its caller's request budget. */
  public enum Budget {
    /** Counted as the caller's own call would be (the console's calls). */
    COUNTED,
    /** Not counted again: the client's request it serves already was (an MCP tool call). */
    ALREADY_COUNTED
  }

  /**
   * An answer of this gateway's public API, as it was sent.
   *
   * @param status the HTTP status
   * @param body the body, empty when there was none
   */
  public record Answer(int status, String body) {

    /** Whether the call succeeded. */
    public boolean ok() {
      return status >= 200 && status < 300;
    }
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
    return request(method, base + path, internalTokens.forService(base, caller), body)
        .exchangeToMono(
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

  /**
   * Sends {@code method target} (a path with its query, already encoded) back through this
   * gateway's own public API with {@code bearer}, a token the edge takes for the caller; emits the
   * status and the body of whatever the API answered, a refusal as much as a success.
   */
  public Mono<Answer> throughGateway(
      String bearer, HttpMethod method, String target, @Nullable Object body, Budget budget) {
    WebClient.RequestHeadersSpec<?> request =
        request(method, gateway + target, bearer, body).accept(MediaType.APPLICATION_JSON);
    if (budget == Budget.ALREADY_COUNTED) {
      request = request.header(LoopbackCalls.HEADER, loopback.mark());
    }
    return request.exchangeToMono(
        response ->
            response
                .bodyToMono(String.class)
                .defaultIfEmpty("")
                .map(answer -> new Answer(response.statusCode().value(), answer)));
  }

  private WebClient.RequestHeadersSpec<?> request(
      HttpMethod method, String target, String bearer, @Nullable Object body) {
    WebClient.RequestBodySpec request =
        web.method(method)
            // A URI, not a template: the target holds ids, which must not become a metric's tag.
            .uri(URI.create(target))
            .header(HttpHeaders.AUTHORIZATION, "Bearer " + bearer);
    return body == null ? request : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body);
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
    return request
        .header(HttpHeaders.AUTHORIZATION, "Bearer " + internalTokens.forService(base, caller))
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
                  .then(Mono.error(unavailable(base, response.statusCode().value())));
            });
  }
}
