package io.agentteams.sdk.internal;

import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.problem.ApiException;
import io.agentteams.sdk.problem.Problem;
import io.agentteams.sdk.problem.TransportException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One HTTP call to the gateway with a bearer token from a {@link TokenSupplier}: JSON in and out,
 * an error answer turned into the {@link ApiException} of its status, a refused token (401) handed
 * back to the supplier and the call tried once more, and an unreachable gateway into a {@link
 * TransportException}.
 */
public final class HttpTransport {

  private static final String USER_AGENT = "agentteams-sdk-java/0.1";

  private final URI base;
  private final HttpClient http;
  private final TokenSupplier tokens;
  private final JsonMapper json;
  private final Duration timeout;

  public HttpTransport(
      URI base, HttpClient http, TokenSupplier tokens, JsonMapper json, Duration timeout) {
    String text = base.toString();
    this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    this.http = http;
    this.tokens = tokens;
    this.json = json;
    this.timeout = timeout;
  }

  /** The gateway's base address. */
  public URI base() {
    return base;
  }

  public JsonMapper json() {
    return json;
  }

  public HttpClient http() {
    return http;
  }

  /** The same gateway and HTTP client with other tokens (e.g. a member's). */
  public HttpTransport withTokens(TokenSupplier other) {
    return new HttpTransport(base, http, other, json, timeout);
  }

  /** A call whose answer is read as {@code type}; null for an empty answer. */
  public <T> @Nullable T call(
      String method, ApiPath path, @Nullable Object body, TypeReference<T> type) {
    byte[] answer = exchange(method, path, body);
    if (answer.length == 0) {
      return null;
    }
    try {
      return json.readValue(answer, type);
    } catch (JacksonException e) {
      throw new TransportException("unreadable answer from " + method + " " + path, e);
    }
  }

  /** A call whose answer is read as {@code type}; null for an empty answer. */
  public <T> @Nullable T call(String method, ApiPath path, @Nullable Object body, Class<T> type) {
    byte[] answer = exchange(method, path, body);
    if (answer.length == 0) {
      return null;
    }
    try {
      return json.readValue(answer, type);
    } catch (JacksonException e) {
      throw new TransportException("unreadable answer from " + method + " " + path, e);
    }
  }

  /** A call whose answer is kept as a JSON tree (an empty answer becomes a missing node). */
  public JsonNode tree(String method, ApiPath path, @Nullable Object body) {
    byte[] answer = exchange(method, path, body);
    if (answer.length == 0) {
      return json.missingNode();
    }
    try {
      return json.readTree(answer);
    } catch (JacksonException e) {
      throw new TransportException("unreadable answer from " + method + " " + path, e);
    }
  }

  /**
   * Opens a server-sent event stream. The caller reads and closes the body.
   *
   * @param lastEventId sent as {@code Last-Event-ID} so the stream resumes after it
   */
  public InputStream openStream(ApiPath path, @Nullable String lastEventId) {
    for (int attempt = 0; ; attempt++) {
      String token = tokens.token();
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(base + path.toString()))
              .timeout(timeout)
              .header("Accept", "text/event-stream")
              .header("User-Agent", USER_AGENT)
              .GET();
      authorize(request, token);
      if (lastEventId != null) {
        request.header("Last-Event-ID", lastEventId);
      }
      HttpResponse<InputStream> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      } catch (IOException e) {
        throw new TransportException("cannot open " + path + ": " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransportException("interrupted opening " + path, e);
      }
      if (response.statusCode() / 100 == 2) {
        return response.body();
      }
      byte[] body;
      try (InputStream in = response.body()) {
        body = in.readAllBytes();
      } catch (IOException e) {
        body = new byte[0];
      }
      ApiException failure = failure(response, body);
      if (response.statusCode() == 401 && attempt == 0 && !token.isEmpty()) {
        tokens.rejected(token);
        continue;
      }
      throw failure;
    }
  }

  private byte[] exchange(String method, ApiPath path, @Nullable Object body) {
    byte[] payload = body == null ? null : write(body);
    for (int attempt = 0; ; attempt++) {
      String token = tokens.token();
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(base + path.toString()))
              .timeout(timeout)
              .header("Accept", "application/json")
              .header("User-Agent", USER_AGENT);
      authorize(request, token);
      if (payload == null) {
        request.method(method, HttpRequest.BodyPublishers.noBody());
      } else {
        request
            .header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofByteArray(payload));
      }
      HttpResponse<byte[]> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        throw new TransportException(method + " " + path + " failed: " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransportException("interrupted during " + method + " " + path, e);
      }
      if (response.statusCode() / 100 == 2) {
        return response.body() == null ? new byte[0] : response.body();
      }
      if (response.statusCode() == 401 && attempt == 0 && !token.isEmpty()) {
        tokens.rejected(token);
        continue;
      }
      throw failure(response, response.body());
    }
  }

  /** An empty token means an anonymous call (the embedded stack's development token endpoint). */
  private static void authorize(HttpRequest.Builder request, String token) {
    if (!token.isEmpty()) {
      request.header("Authorization", "Bearer " + token);
    }
  }

  private byte[] write(Object body) {
    if (body instanceof JsonNode node) {
      return json.writeValueAsBytes(node);
    }
    return json.writeValueAsBytes(body);
  }

  private ApiException failure(HttpResponse<?> response, byte @Nullable [] body) {
    Problem problem = problem(response.statusCode(), body);
    return ApiException.of(problem, retryAfter(response));
  }

  private Problem problem(int status, byte @Nullable [] body) {
    if (body == null || body.length == 0) {
      return Problem.of(status, "HTTP " + status);
    }
    JsonNode tree;
    try {
      tree = json.readTree(body);
    } catch (JacksonException e) {
      return Problem.of(status, new String(body, StandardCharsets.UTF_8));
    }
    if (!tree.isObject()) {
      return Problem.of(status, tree.toString());
    }
    Map<String, JsonNode> more = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> member : tree.properties()) {
      switch (member.getKey()) {
        case "type", "title", "status", "detail", "instance", "code" -> {}
        default -> more.put(member.getKey(), member.getValue());
      }
    }
    return new Problem(
        text(tree, "type"),
        text(tree, "title"),
        tree.path("status").asInt(status),
        text(tree, "detail"),
        text(tree, "instance"),
        text(tree, "code"),
        more);
  }

  private static @Nullable String text(JsonNode tree, String name) {
    JsonNode value = tree.get(name);
    return value == null || value.isNull() ? null : value.asString();
  }

  private static @Nullable Duration retryAfter(HttpResponse<?> response) {
    return response
        .headers()
        .firstValue("Retry-After")
        .map(
            value -> {
              try {
                return Duration.ofSeconds(Long.parseLong(value.trim()));
              } catch (NumberFormatException e) {
                return null;
              }
            })
        .orElse(null);
  }
}
