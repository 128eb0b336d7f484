package io.agentteams.scheduler.a2a.client;

import io.agentteams.platform.outbound.OutboundHttp;
import io.agentteams.platform.outbound.OutboundRefused;
import io.agentteams.scheduler.a2a.A2aProperties;
import io.agentteams.scheduler.a2a.domain.A2aFailure;
import io.agentteams.scheduler.a2a.domain.A2aFailure.Kind;
import io.agentteams.scheduler.a2a.domain.AgentCard;
import io.netty.channel.ConnectTimeoutException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.UUID;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The A2A 1.0 JSON-RPC binding, as a client: the agent card, one-shot calls and SSE streams. Every
 * request goes through the outbound guard's clients (addresses checked on every connection, no
 * redirects, TLS verified, bounded time and size) and names protocol version 1.0. Failures come out
 * as {@link A2aFailure}s that say whether the request may have reached the agent.
 */
@Component
public class A2aClient {

  /** Where an A2A agent publishes its card, under its base URL. */
  public static final String CARD_PATH = "/.well-known/agent-card.json";

  private static final ParameterizedTypeReference<ServerSentEvent<String>> EVENTS =
      new ParameterizedTypeReference<>() {};

  private final WebClient calls;
  private final WebClient streams;
  private final JsonMapper json;
  private final A2aProperties properties;

  public A2aClient(OutboundHttp outbound, A2aProperties properties, JsonMapper json) {
    int maxBytes = (int) properties.maxResponseBytes().toBytes();
    this.calls =
        outbound.client(
            "a2a",
            new OutboundHttp.Limits(
                properties.connectTimeout(), properties.responseTimeout(), maxBytes));
    this.streams =
        outbound.client(
            "a2a-stream", new OutboundHttp.Limits(properties.connectTimeout(), null, maxBytes));
    this.json = json;
    this.properties = properties;
  }

  /** Fetches and reads the agent card under the agent's base URL. */
  public Mono<AgentCard> card(String baseUrl) {
    String url = stripSlash(baseUrl) + CARD_PATH;
    return calls
        .get()
        .uri(url)
        .accept(MediaType.APPLICATION_JSON)
        .exchangeToMono(response -> body(response, "the agent card"))
        .onErrorMap(e -> !(e instanceof A2aFailure), A2aClient::failure)
        .map(
            text -> {
              try {
                return A2aWire.card(json.readTree(text));
              } catch (RuntimeException unreadable) {
                throw new A2aFailure(
                    Kind.REJECTED,
                    "the agent card at " + url + " is unusable: " + message(unreadable));
              }
            });
  }

  /** A new message params object: {@code message} with the role, ids and one text part. */
  public ObjectNode messageParams(
      String messageId,
      String contextId,
      @org.jspecify.annotations.Nullable String taskId,
      String text) {
    ObjectNode params = json.createObjectNode();
    ObjectNode message = params.putObject("message");
    message.put("messageId", messageId);
    message.put("contextId", contextId);
    if (taskId != null) {
      message.put("taskId", taskId);
    }
    message.put("role", "ROLE_USER");
    message.putArray("parts").addObject().put("text", text).put("mediaType", "text/plain");
    return params;
  }

  /** Params naming one task by id. */
  public ObjectNode taskParams(String taskId) {
    ObjectNode params = json.createObjectNode();
    params.put("id", taskId);
    return params;
  }

  /** Params of ListTasks for one context, with enough history to find a message in it. */
  public ObjectNode listParams(String contextId) {
    ObjectNode params = json.createObjectNode();
    params.put("contextId", contextId);
    params.put("historyLength", 10);
    params.put("pageSize", 100);
    return params;
  }

  /** One JSON-RPC call: its {@code result}, or an {@link A2aFailure}. */
  public Mono<JsonNode> call(String url, String method, ObjectNode params) {
    return calls
        .post()
        .uri(url)
        .contentType(MediaType.APPLICATION_JSON)
        .accept(MediaType.APPLICATION_JSON)
        .header("A2A-Version", "1.0")
        .header(HttpHeaders.USER_AGENT, "agent-teams-a2a/1")
        .bodyValue(request(method, params))
        .exchangeToMono(response -> body(response, method))
        .onErrorMap(e -> !(e instanceof A2aFailure), A2aClient::failure)
        .map(text -> result(method, text));
  }

  /**
   * A streaming JSON-RPC call (SendStreamingMessage, SubscribeToTask): each event's {@code result},
   * in order. The stream ends when the agent closes it; silence longer than the idle time-out ends
   * it with an {@link A2aFailure} of kind unknown.
   */
  public Flux<JsonNode> stream(String url, String method, ObjectNode params) {
    return streams
        .post()
        .uri(url)
        .contentType(MediaType.APPLICATION_JSON)
        .accept(MediaType.TEXT_EVENT_STREAM)
        .header("A2A-Version", "1.0")
        .header(HttpHeaders.USER_AGENT, "agent-teams-a2a/1")
        .bodyValue(request(method, params))
        .exchangeToFlux(
            response -> {
              if (!response.statusCode().is2xxSuccessful()) {
                return body(response, method).flatMapMany(text -> Flux.empty());
              }
              MediaType type = response.headers().contentType().orElse(null);
              if (type != null && type.isCompatibleWith(MediaType.APPLICATION_JSON)) {
                // An agent may answer a stream request with a single JSON-RPC response (an error).
                return response.bodyToMono(String.class).map(text -> result(method, text)).flux();
              }
              return response
                  .bodyToFlux(EVENTS)
                  .timeout(properties.streamIdleTimeout())
                  .filter(event -> event.data() != null && !event.data().isBlank())
                  .map(event -> result(method, event.data()));
            })
        .onErrorMap(e -> !(e instanceof A2aFailure), A2aClient::failure);
  }

  private String request(String method, ObjectNode params) {
    ObjectNode request = json.createObjectNode();
    request.put("jsonrpc", "2.0");
    request.put("id", UUID.randomUUID().toString());
    request.put("method", method);
    request.set("params", params);
    return json.writeValueAsString(request);
  }

  private Mono<String> body(ClientResponse response, String what) {
    int status = response.statusCode().value();
    if (status == 401 || status == 403) {
      return response
          .releaseBody()
          .then(
              Mono.error(
                  new A2aFailure(
                      Kind.UNAUTHORIZED, "the agent answered " + status + " to " + what)));
    }
    if (status == 429 || status == 408 || status >= 500) {
      return response
          .releaseBody()
          .then(
              Mono.error(
                  new A2aFailure(Kind.RETRYABLE, "the agent answered " + status + " to " + what)));
    }
    if (status < 200 || status >= 300) {
      return response
          .releaseBody()
          .then(
              Mono.error(
                  new A2aFailure(
                      Kind.REJECTED,
                      "the agent answered "
                          + status
                          + " to "
                          + what
                          + (status >= 300 && status < 400
                              ? "; redirects are not followed"
                              : ""))));
    }
    return response.bodyToMono(String.class).defaultIfEmpty("");
  }

  private JsonNode result(String method, String text) {
    JsonNode response;
    try {
      response = json.readTree(text);
    } catch (RuntimeException unreadable) {
      throw new A2aFailure(Kind.REJECTED, "the agent's answer to " + method + " is not JSON");
    }
    JsonNode error = response.get("error");
    if (error != null && !error.isNull()) {
      int code = error.path("code").asInt(0);
      String reason =
          "the agent refused "
              + method
              + " ("
              + code
              + "): "
              + cap(error.path("message").asString(""));
      if (code == -32001) {
        throw new A2aFailure(Kind.TASK_NOT_FOUND, reason);
      }
      if (code == -32601 || code == -32004) {
        throw new A2aFailure(Kind.UNSUPPORTED, reason);
      }
      throw new A2aFailure(Kind.REJECTED, reason);
    }
    JsonNode result = response.get("result");
    if (result == null || result.isNull()) {
      throw new A2aFailure(Kind.REJECTED, "the agent's answer to " + method + " has no result");
    }
    return result;
  }

  /** What a failure without an answer means: refused, never sent, or unknown. */
  static A2aFailure failure(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof A2aFailure failure) {
        return failure;
      }
      if (cause instanceof OutboundRefused refused) {
        return new A2aFailure(Kind.REFUSED, "the outbound guard refused it: " + refused.reason());
      }
      if (cause instanceof DataBufferLimitException) {
        return new A2aFailure(Kind.REJECTED, "the agent's answer is larger than the limit");
      }
      if (cause instanceof ConnectException
          || cause instanceof ConnectTimeoutException
          || cause instanceof NoRouteToHostException
          || cause instanceof UnknownHostException) {
        return new A2aFailure(
            Kind.RETRYABLE, "could not connect to the agent: " + cause.getClass().getSimpleName());
      }
    }
    // The request may have left (a time-out, a connection closed mid-answer): unknown.
    return new A2aFailure(
        Kind.UNKNOWN, "the call ended without an answer: " + error.getClass().getSimpleName());
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static String message(RuntimeException e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : cap(e.getMessage());
  }

  private static String cap(String text) {
    return text.length() > 500 ? text.substring(0, 500) + "…" : text;
  }
}
