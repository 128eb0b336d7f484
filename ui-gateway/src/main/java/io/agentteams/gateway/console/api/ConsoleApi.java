package io.agentteams.gateway.console.api;

import io.agentteams.gateway.identity.EdgeTokens;
import io.agentteams.platform.identity.Caller;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Calls this gateway's own public API as the signed-in owner, with a short-lived owner token the
 * gateway mints for the call. The console can therefore do exactly what the API lets that owner do,
 * through the same routes, checks and errors, and nothing more. Every call counts against the
 * owner's request budget, as the owner's own API calls do: a console session buys no more.
 */
@Component
public class ConsoleApi implements ApplicationListener<WebServerInitializedEvent> {

  private static final Duration TOKEN_TTL = Duration.ofMinutes(2);
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final WebClient web;
  private final EdgeTokens tokens;
  private final JsonMapper mapper;
  private volatile String base = "http://127.0.0.1:8080";

  public ConsoleApi(WebClient.Builder web, EdgeTokens tokens, JsonMapper mapper) {
    this.web =
        web.clone()
            .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(8 * 1024 * 1024))
            .build();
    this.tokens = tokens;
    this.mapper = mapper;
  }

  @Override
  public void onApplicationEvent(WebServerInitializedEvent event) {
    if (event.getApplicationContext().getServerNamespace() == null) {
      base = "http://127.0.0.1:" + event.getWebServer().getPort();
    }
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
    WebClient.RequestBodySpec request =
        web.method(method)
            .uri(URI.create(base + path))
            .header(HttpHeaders.AUTHORIZATION, "Bearer " + tokens.issue(owner, TOKEN_TTL))
            .accept(MediaType.APPLICATION_JSON);
    WebClient.RequestHeadersSpec<?> ready =
        body == null ? request : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body);
    return ready
        .exchangeToMono(
            response ->
                response
                    .bodyToMono(String.class)
                    .defaultIfEmpty("")
                    .map(raw -> new ApiResult(response.statusCode().value(), parse(raw))))
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
