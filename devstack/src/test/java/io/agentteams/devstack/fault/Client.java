package io.agentteams.devstack.fault;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The public API as an agent platform calls it, through the gateway only, keeping count of every
 * error answer that was not Problem Details (the product promises nothing else).
 */
public final class Client {

  /** An answer, or the failure to get one. */
  public record Reply(int status, String body, String contentType, @Nullable String failure) {

    /** What the client learned: OK for 2xx, FAIL for 4xx, INFO for no answer or a 5xx. */
    public Outcome outcome() {
      if (failure != null || status >= 500) {
        return Outcome.INFO;
      }
      return status >= 400 ? Outcome.FAIL : Outcome.OK;
    }

    public boolean ok() {
      return outcome() == Outcome.OK;
    }

    public JsonNode json() {
      return JSON.readTree(body);
    }

    /** The status or the failure, as evidence. */
    public String detail() {
      return failure != null
          ? failure
          : status + (status >= 400 ? " " + body.substring(0, Math.min(body.length(), 200)) : "");
    }
  }

  static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Duration TIMEOUT = Duration.ofSeconds(15);

  private final String base;
  private final HttpClient http;
  private final List<String> notProblemDetails = new CopyOnWriteArrayList<>();

  public Client(String gatewayUrl) {
    this.base = gatewayUrl;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  public Reply get(String path, @Nullable String token) {
    return call("GET", path, token, null);
  }

  public Reply post(String path, @Nullable String token, @Nullable Object body) {
    return call("POST", path, token, body);
  }

  public Reply put(String path, @Nullable String token, @Nullable Object body) {
    return call("PUT", path, token, body);
  }

  public Reply call(String method, String path, @Nullable String token, @Nullable Object body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(TIMEOUT)
            .header("Accept", "application/json");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      String type = response.headers().firstValue("Content-Type").orElse("");
      Reply reply = new Reply(response.statusCode(), response.body(), type, null);
      if (reply.status() >= 400 && !isProblem(reply)) {
        notProblemDetails.add(method + " " + path + " answered " + reply.detail() + " as " + type);
      }
      return reply;
    } catch (IOException e) {
      return new Reply(0, "", "", e.getClass().getSimpleName() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Reply(0, "", "", "interrupted");
    }
  }

  /**
   * Whether an error answer is Problem Details, or the one error answer designed as a result: a
   * public-state update whose revision was stale answers 409 with {@code conflict: true} and the
   * current entry (DESIGN.md, public state).
   */
  private static boolean isProblem(Reply reply) {
    if (!reply.contentType().startsWith("application/problem+json")) {
      try {
        return reply.status() == 409 && reply.json().path("conflict").asBoolean(false);
      } catch (RuntimeException unreadable) {
        return false;
      }
    }
    try {
      JsonNode body = reply.json();
      return body.has("type") && body.get("status").asInt() == reply.status();
    } catch (RuntimeException unreadable) {
      return false;
    }
  }

  /** A development owner token. */
  public String ownerToken(String owner) {
    return must(post("/dev/tokens", null, Map.of("owner_id", owner)))
        .get("access_token")
        .asString();
  }

  /** The body of an answer that must be a 2xx (set-up steps, not recorded operations). */
  public static JsonNode must(Reply reply) {
    if (!reply.ok()) {
      throw new IllegalStateException("expected a 2xx, got " + reply.detail());
    }
    return reply.json();
  }

  /** Error answers seen that were not Problem Details, as evidence. */
  public List<String> notProblemDetails() {
    return List.copyOf(notProblemDetails);
  }

  public String base() {
    return base;
  }

  HttpClient http() {
    return http;
  }
}
