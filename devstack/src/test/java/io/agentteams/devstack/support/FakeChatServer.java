package io.agentteams.devstack.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A chat-completions server on loopback that answers from a script: tool calls (well-formed or
 * not), final answers, errors, each with the token usage a real server would report. It keeps every
 * request, so a test can check what the model was sent.
 */
public final class FakeChatServer implements AutoCloseable {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** A scripted answer: HTTP status and body. */
  public record Answer(int status, String body) {

    /** The same answer, saying which model served it (as real servers do). */
    public Answer servedBy(String model) {
      ObjectNode json = (ObjectNode) JSON.readTree(body);
      json.put("model", model);
      return new Answer(status, json.toString());
    }
  }

  private final HttpServer server;
  private final Deque<Supplier<Answer>> script = new ArrayDeque<>();
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  private volatile Supplier<Answer> whenEmpty = () -> error(500, "the script ran out");

  public FakeChatServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/v1/chat/completions", this::answer);
    server.start();
  }

  /** The base URL a client is configured with. */
  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
  }

  /** Answers the next call so. */
  public FakeChatServer then(Answer answer) {
    synchronized (script) {
      script.add(() -> answer);
    }
    return this;
  }

  /** Answers every call after the script so. */
  public FakeChatServer otherwise(Supplier<Answer> answer) {
    this.whenEmpty = answer;
    return this;
  }

  /** Every request received, in order. */
  public List<JsonNode> requests() {
    return List.copyOf(requests);
  }

  /** A turn that calls one tool with arguments written as given (JSON or not). */
  public static Answer toolCall(String id, String tool, String arguments, long tokens) {
    ObjectNode body = completion(tokens);
    ObjectNode message = (ObjectNode) body.get("choices").get(0).get("message");
    message.putNull("content");
    ObjectNode call = message.putArray("tool_calls").addObject();
    call.put("id", id);
    call.put("type", "function");
    call.putObject("function").put("name", tool).put("arguments", arguments);
    ((ObjectNode) body.get("choices").get(0)).put("finish_reason", "tool_calls");
    return new Answer(200, body.toString());
  }

  /** A final answer. */
  public static Answer text(String content, long tokens) {
    ObjectNode body = completion(tokens);
    ((ObjectNode) body.get("choices").get(0).get("message")).put("content", content);
    ((ObjectNode) body.get("choices").get(0)).put("finish_reason", "stop");
    return new Answer(200, body.toString());
  }

  /** An error answer. */
  public static Answer error(int status, String message) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("error").put("message", message);
    return new Answer(status, body.toString());
  }

  private static ObjectNode completion(long tokens) {
    ObjectNode body = JSON.createObjectNode();
    body.put("id", "chatcmpl-test");
    body.put("object", "chat.completion");
    ObjectNode choice = body.putArray("choices").addObject();
    choice.put("index", 0);
    choice.putObject("message").put("role", "assistant");
    ObjectNode usage = body.putObject("usage");
    usage.put("prompt_tokens", tokens - tokens / 4);
    usage.put("completion_tokens", tokens / 4);
    usage.put("total_tokens", tokens);
    return body;
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      requests.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
      Supplier<Answer> next;
      synchronized (script) {
        next = script.isEmpty() ? whenEmpty : script.poll();
      }
      Answer answer = next.get();
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(answer.status(), bytes.length);
      exchange.getResponseBody().write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
