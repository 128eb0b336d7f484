package io.agentteams.mailbox.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The service's public API as a test drives it: requests in, parsed JSON and raw bytes out. */
public final class MailboxApi {

  private final WebTestClient web;
  private final JsonMapper json;

  public MailboxApi(WebTestClient web, JsonMapper json) {
    this.web = web;
    this.json = json;
  }

  /** A response: status, body bytes as sent, and the body parsed. */
  public record Response(int status, byte[] bytes, JsonNode body) {}

  /** Sends a direct message; expects 201. */
  public JsonNode direct(UUID team, String auth, String to, String text) {
    Response response = send(team, auth, Map.of("to", to, "text", text));
    if (response.status() != 201) {
      throw new AssertionError("send failed with " + response.status() + ": " + response.body());
    }
    return response.body();
  }

  /** Sends a broadcast; expects 201. */
  public JsonNode broadcast(UUID team, String auth, String text) {
    Response response = send(team, auth, Map.of("broadcast", true, "text", text));
    if (response.status() != 201) {
      throw new AssertionError("send failed with " + response.status() + ": " + response.body());
    }
    return response.body();
  }

  /** POST /messages with any body. */
  public Response send(UUID team, String auth, Map<String, ?> body) {
    return exchange(
        web.post()
            .uri("/api/v1/teams/{team}/messages", team)
            .header("Authorization", auth)
            .bodyValue(body)
            .exchange()
            .expectBody()
            .returnResult());
  }

  /** GET /inbox. */
  public Response inbox(UUID team, String auth, @Nullable Long after, @Nullable Integer limit) {
    return exchange(
        web.get()
            .uri(
                builder -> {
                  builder.path("/api/v1/teams/{team}/inbox");
                  if (after != null) {
                    builder.queryParam("after", after);
                  }
                  if (limit != null) {
                    builder.queryParam("limit", limit);
                  }
                  return builder.build(team);
                })
            .header("Authorization", auth)
            .exchange()
            .expectBody()
            .returnResult());
  }

  /** GET /inbox, a read of what is new acknowledging {@code ack} (a lease id or "none"). */
  public Response read(UUID team, String auth, String ack, @Nullable Integer limit) {
    return exchange(
        web.get()
            .uri(
                builder -> {
                  builder.path("/api/v1/teams/{team}/inbox").queryParam("ack", ack);
                  if (limit != null) {
                    builder.queryParam("limit", limit);
                  }
                  return builder.build(team);
                })
            .header("Authorization", auth)
            .exchange()
            .expectBody()
            .returnResult());
  }

  /** POST /inbox/ack with any body. */
  public Response acknowledge(UUID team, String auth, Map<String, ?> body) {
    return exchange(
        web.post()
            .uri("/api/v1/teams/{team}/inbox/ack", team)
            .header("Authorization", auth)
            .bodyValue(body)
            .exchange()
            .expectBody()
            .returnResult());
  }

  /** GET /history with the given query parameters (nulls left out). */
  public Response history(UUID team, String auth, Map<String, ?> query) {
    return get("/api/v1/teams/{team}/history", team, auth, query);
  }

  /** GET /results with the given query parameters (nulls left out). */
  public Response results(UUID team, String auth, Map<String, ?> query) {
    return get("/api/v1/teams/{team}/results", team, auth, query);
  }

  /** GET /results/{jobId}. */
  public Response result(UUID team, String auth, String jobId) {
    return exchange(
        web.get()
            .uri("/api/v1/teams/{team}/results/{job}", team, jobId)
            .header("Authorization", auth)
            .exchange()
            .expectBody()
            .returnResult());
  }

  /** GET the recent messages for the team context. */
  public Response recent(UUID team, String auth) {
    return get("/api/internal/v1/teams/{team}/recent-messages", team, auth, Map.of());
  }

  /** Query parameters, leaving out nulls. */
  public static Map<String, Object> params(Object... keysAndValues) {
    Map<String, Object> params = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      if (keysAndValues[i + 1] != null) {
        params.put((String) keysAndValues[i], keysAndValues[i + 1]);
      }
    }
    return params;
  }

  private Response get(String path, UUID team, String auth, Map<String, ?> query) {
    return exchange(
        web.get()
            .uri(
                builder -> {
                  builder.path(path);
                  query.forEach((k, v) -> builder.queryParam(k, "{" + k + "}"));
                  return builder.build(withTeam(team, query));
                })
            .header("Authorization", auth)
            .exchange()
            .expectBody()
            .returnResult());
  }

  private static Map<String, Object> withTeam(UUID team, Map<String, ?> query) {
    Map<String, Object> variables = new LinkedHashMap<>(query);
    variables.put("team", team);
    return variables;
  }

  private Response exchange(EntityExchangeResult<byte[]> result) {
    byte[] bytes = result.getResponseBody() == null ? new byte[0] : result.getResponseBody();
    JsonNode body = bytes.length == 0 ? json.createObjectNode() : json.readTree(bytes);
    return new Response(result.getStatus().value(), bytes, body);
  }
}
