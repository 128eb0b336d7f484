package io.agentteams.gateway.console.api;

import io.agentteams.gateway.identity.EdgeTokens;
import io.agentteams.gateway.routing.InternalCalls;
import io.agentteams.platform.identity.Caller;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Calls this gateway's own public API as the signed-in owner, with a short-lived owner token the
 * gateway mints for the call ({@link InternalCalls#throughGateway}). The console can therefore do
 * exactly what the API lets that owner do, through the same routes, checks and errors, and nothing
 * more. Every call counts against the owner's request budget, as the owner's own API calls do: a
 * console session buys no more.
 */
@Component
public class ConsoleApi {

  private static final Duration TOKEN_TTL = Duration.ofMinutes(2);
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final InternalCalls calls;
  private final EdgeTokens tokens;
  private final JsonMapper mapper;

  public ConsoleApi(InternalCalls calls, EdgeTokens tokens, JsonMapper mapper) {
    this.calls = calls;
    this.tokens = tokens;
    this.mapper = mapper;
  }

  /** A path with its query parameters (null values left out), encoded. */
  public static String path(String template, Map<String, ?> query, Object... variables) {
    UriComponentsBuilder builder = UriComponentsBuilder.fromPath(template);
    query.forEach(
        (name, value) -> {
          if (value != null && !value.toString().isEmpty()) {
            builder.queryParam(name, value);
          }
        });
    return builder.encode().buildAndExpand(variables).toUriString();
  }

  public Mono<ApiResult> get(Caller.Owner owner, String path) {
    return call(owner, HttpMethod.GET, path, null);
  }

  public Mono<ApiResult> post(Caller.Owner owner, String path, @Nullable Object body) {
    return call(owner, HttpMethod.POST, path, body);
  }

  public Mono<ApiResult> put(Caller.Owner owner, String path, Object body) {
    return call(owner, HttpMethod.PUT, path, body);
  }

  public Mono<ApiResult> delete(Caller.Owner owner, String path) {
    return call(owner, HttpMethod.DELETE, path, null);
  }

  /** Calls the API; a transport failure is an answer with status 0, never an exception. */
  public Mono<ApiResult> call(
      Caller.Owner owner, HttpMethod method, String path, @Nullable Object body) {
    return calls
        .throughGateway(
            tokens.issue(owner, TOKEN_TTL), method, path, body, InternalCalls.Budget.COUNTED)
        .map(answer -> new ApiResult(answer.status(), parse(answer.body())))
        .timeout(TIMEOUT)
        .onErrorResume(e -> Mono.just(new ApiResult(0, null)));
  }

  private @Nullable JsonNode parse(String raw) {
    if (raw.isBlank()) {
      return null;
    }
    try {
      return mapper.readTree(raw);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
