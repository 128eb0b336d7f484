package io.agentteams.devstack.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The public API as an agent platform sees it: the gateway only, with bearer tokens. */
public final class Api {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** One answer: status and body (null when there is none). */
  public record Response(int status, @Nullable JsonNode body, String raw) {

    /** Asserts a 2xx status and returns the body. */
    public JsonNode ok() {
      assertThat(status).as("status of %s", raw).isBetween(200, 299);
      return body;
    }
  }

  private final WebClient gateway;
  private final JsonMapper mapper = JsonMapper.builder().build();

  public Api(String gatewayUrl) {
    this.gateway =
        WebClient.builder()
            .baseUrl(gatewayUrl)
            .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(4 * 1024 * 1024))
            .build();
  }

  /** A development owner token. */
  public String ownerToken(String owner) {
    return call(HttpMethod.POST, "/dev/tokens", null, Map.of("owner_id", owner))
        .ok()
        .get("access_token")
        .asString();
  }

  /** An agent worker token the owner mints for one of its agents. */
  public String workerToken(String ownerToken, String agentId) {
    return post("/api/v1/agents/" + agentId + "/tokens", ownerToken, Map.of())
        .ok()
        .get("access_token")
        .asString();
  }

  /** A member token the owner mints for a member of its team. */
  public String memberToken(String ownerToken, Object teamId, String member) {
    return post("/api/v1/teams/" + teamId + "/members/" + member + "/tokens", ownerToken, Map.of())
        .ok()
        .get("access_token")
        .asString();
  }

  /**
   * A team of two members, {@code lead} (its lead) and {@code second}, both played by {@code
   * agentId}, once the team service says it is ready; its id.
   */
  public String readyTeamOfOneAgent(String ownerToken, String agentId, String name, String goal) {
    String id =
        post(
                "/api/v1/teams",
                ownerToken,
                Map.of(
                    "name",
                    name,
                    "goal",
                    goal,
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", agentId, "lead", true),
                        Map.of("name", "second", "agent_id", agentId))))
            .ok()
            .get("id")
            .asString();
    Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> get("/api/v1/teams/" + id, ownerToken).ok().get("status").asString(),
            "ready"::equals);
    return id;
  }

  public Response get(String path, @Nullable String token) {
    return call(HttpMethod.GET, path, token, null);
  }

  public Response post(String path, @Nullable String token, @Nullable Object body) {
    return call(HttpMethod.POST, path, token, body);
  }

  public Response call(
      HttpMethod method, String path, @Nullable String token, @Nullable Object body) {
    WebClient.RequestBodySpec request = gateway.method(method).uri(path);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    WebClient.RequestHeadersSpec<?> ready = body == null ? request : request.bodyValue(body);
    return ready
        .exchangeToMono(
            response ->
                response
                    .bodyToMono(String.class)
                    .defaultIfEmpty("")
                    .map(
                        raw ->
                            new Response(
                                response.statusCode().value(),
                                raw.isEmpty() ? null : mapper.readTree(raw),
                                raw)))
        .block(TIMEOUT);
  }

  /** A call with a raw JSON body, sent as is (malformed on purpose, say). */
  public Response callRaw(HttpMethod method, String path, @Nullable String token, String json) {
    WebClient.RequestBodySpec request =
        gateway.method(method).uri(path).contentType(MediaType.APPLICATION_JSON);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return request
        .bodyValue(json)
        .exchangeToMono(
            response ->
                response
                    .bodyToMono(String.class)
                    .defaultIfEmpty("")
                    .map(raw -> new Response(response.statusCode().value(), null, raw)))
        .block(TIMEOUT);
  }

  /** Opens an SSE stream; the caller subscribes and disposes it. */
  public Flux<ServerSentEvent<String>> stream(String path, String token) {
    return gateway
        .get()
        .uri(path)
        .header("Authorization", "Bearer " + token)
        .accept(MediaType.TEXT_EVENT_STREAM)
        .retrieve()
        .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {});
  }

  /** The status an SSE request is answered with, without reading the stream. */
  public int streamStatus(String path, @Nullable String token) {
    WebClient.RequestHeadersSpec<?> request =
        gateway.get().uri(path).accept(MediaType.TEXT_EVENT_STREAM);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return request
        .exchangeToMono(response -> Mono.just(response.statusCode().value()))
        .block(TIMEOUT);
  }

  /** The JSON tree of a map of inputs. */
  public ObjectNode tree(Map<String, ?> value) {
    return mapper.valueToTree(value);
  }

  public JsonNode json(String text) {
    return mapper.readTree(text);
  }
}
