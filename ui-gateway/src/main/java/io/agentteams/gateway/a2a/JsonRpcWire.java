package io.agentteams.gateway.a2a;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON-RPC 2.0 on the wire: result and error responses, answered as one JSON body or, for streams,
 * as server-sent events whose {@code data} lines each hold a response, with keep-alive comments
 * while idle.
 */
final class JsonRpcWire {

  private final JsonMapper json;
  private final Duration heartbeat;

  JsonRpcWire(JsonMapper json, Duration heartbeat) {
    this.json = json;
    this.heartbeat = heartbeat;
  }

  JsonNode result(@Nullable JsonNode id, JsonNode result) {
    ObjectNode response = json.createObjectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id == null ? json.nullNode() : id);
    response.set("result", result);
    return response;
  }

  JsonNode error(@Nullable JsonNode id, int code, @Nullable String message) {
    ObjectNode response = json.createObjectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id == null ? json.nullNode() : id);
    ObjectNode error = response.putObject("error");
    error.put("code", code);
    error.put("message", message == null ? "error" : message);
    return response;
  }

  /** The error response an {@link RpcError} stands for. */
  JsonNode error(@Nullable JsonNode id, RpcError error) {
    return error(id, error.code(), error.getMessage());
  }

  Mono<Void> writeJson(ServerHttpResponse response, JsonNode body) {
    return writeJson(response, Mono.just(body));
  }

  Mono<Void> writeJson(ServerHttpResponse response, Mono<JsonNode> body) {
    return body.flatMap(
        node -> {
          response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
          return response.writeWith(Mono.just(buffer(response, json.writeValueAsString(node))));
        });
  }

  /**
   * Answers a stream: each result as an SSE {@code data} line holding a JSON-RPC response, with
   * keep-alive comments while idle, closing when the results end; an error on the way is a last
   * error response. A refusal before the stream starts is one JSON response.
   */
  Mono<Void> writeStream(
      ServerHttpResponse response, @Nullable JsonNode id, Mono<Flux<JsonNode>> results) {
    return results
        .flatMap(
            flux -> {
              response.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
              response.getHeaders().setCacheControl("no-cache");
              Flux<String> events =
                  flux.map(r -> "data: " + json.writeValueAsString(result(id, r)) + "\n\n")
                      .onErrorResume(
                          e ->
                              Flux.just(
                                  "data: "
                                      + json.writeValueAsString(
                                          e instanceof RpcError rpc
                                              ? error(id, rpc)
                                              : error(id, RpcError.INTERNAL_ERROR, e.getMessage()))
                                      + "\n\n"));
              Flux<String> keepAlive = Flux.interval(heartbeat).map(tick -> ": keep-alive\n\n");
              // Keep-alives stop when the results end, so the stream closes with them.
              Flux<String> all =
                  events.publish(
                      shared ->
                          Flux.merge(
                              shared,
                              keepAlive.takeUntilOther(
                                  shared.ignoreElements().then(Mono.just(1)))));
              return response.writeAndFlushWith(all.map(text -> Mono.just(buffer(response, text))));
            })
        .onErrorResume(RpcError.class, e -> writeJson(response, error(id, e)));
  }

  private static DataBuffer buffer(ServerHttpResponse response, String text) {
    return response.bufferFactory().wrap(text.getBytes(StandardCharsets.UTF_8));
  }
}
