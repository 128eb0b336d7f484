package io.agentteams.scheduler.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An A2A 1.0 agent on 127.0.0.1 that does not stream (its tasks are polled with GetTask) and acts
 * on each message as its text says: {@code complete} completes the task with an artifact and usage,
 * {@code fail} fails it, {@code hold} keeps it working until CancelTask, and {@code lose} completes
 * it but never answers SendMessage (the scheduler's outcome is unknown), so the scheduler must find
 * the task with ListTasks. It records which jobs were looked up again and which were cancelled.
 */
public final class A2aTestPeer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final JsonMapper json = JsonMapper.builder().build();
  private final Map<String, ObjectNode> tasks = new ConcurrentHashMap<>();
  private final Set<String> lookedUpAgain = ConcurrentHashMap.newKeySet();
  private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
  private final CountDownLatch closing = new CountDownLatch(1);

  public A2aTestPeer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  /** The agent's base URL, where its card is. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/agent";
  }

  /** Whether the job's task was looked for again (ListTasks) after its message went unanswered. */
  public boolean lookedUpAgain(UUID jobId) {
    return lookedUpAgain.contains(jobId.toString());
  }

  /** Whether the job's task was cancelled with CancelTask. */
  public boolean cancelled(UUID jobId) {
    return cancelled.contains(jobId.toString());
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (exchange.getRequestMethod().equals("GET")) {
        ObjectNode card = json.createObjectNode();
        card.put("name", "contract peer");
        card.putObject("capabilities").put("streaming", false);
        card.putArray("supportedInterfaces")
            .addObject()
            .put("url", url() + "/rpc")
            .put("protocolBinding", "JSONRPC")
            .put("protocolVersion", "1.0");
        answer(exchange, card);
        return;
      }
      JsonNode request = json.readTree(exchange.getRequestBody().readAllBytes());
      JsonNode params = request.path("params");
      ObjectNode response = json.createObjectNode();
      response.put("jsonrpc", "2.0");
      response.set("id", request.get("id"));
      JsonNode result =
          switch (request.path("method").asString("")) {
            case "SendMessage" -> send(params.path("message"));
            case "GetTask" -> tasks.get(params.path("id").asString());
            case "ListTasks" -> list(params.path("contextId").asString());
            case "CancelTask" -> cancel(params.path("id").asString());
            default -> null;
          };
      if (result == null) {
        response.putObject("error").put("code", -32601).put("message", "not supported here");
      } else {
        response.set("result", result);
      }
      answer(exchange, response);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private @Nullable JsonNode send(JsonNode message) throws InterruptedException {
    String text = message.path("parts").path(0).path("text").asString("");
    String jobId = message.path("messageId").asString();
    ObjectNode task = json.createObjectNode();
    task.put("id", "task-" + UUID.randomUUID());
    task.put("contextId", message.path("contextId").asString());
    task.set("history", json.createArrayNode().add(message));
    task.put("jobId", jobId);
    switch (text) {
      case "complete", "lose" -> {
        status(task, "TASK_STATE_COMPLETED", null);
        task.putArray("artifacts")
            .addObject()
            .put("artifactId", "answer")
            .putArray("parts")
            .addObject()
            .put("text", "done: " + text);
        task.putObject("metadata").putObject("usage").put("tokens", 42).put("model", "peer-model");
      }
      case "fail" -> status(task, "TASK_STATE_FAILED", "the agent broke");
      default -> status(task, "TASK_STATE_WORKING", null);
    }
    tasks.put(task.get("id").asString(), task);
    if (text.equals("lose")) {
      // The agent did the work, but its answer never reaches the scheduler.
      closing.await(60, TimeUnit.SECONDS);
      return null;
    }
    return json.createObjectNode().set("task", task);
  }

  private JsonNode list(String contextId) {
    ArrayNode found = json.createArrayNode();
    for (ObjectNode task : tasks.values()) {
      if (task.path("contextId").asString().equals(contextId)) {
        lookedUpAgain.add(task.path("jobId").asString());
        found.add(task);
      }
    }
    return json.createObjectNode().set("tasks", found);
  }

  private @Nullable JsonNode cancel(String taskId) {
    ObjectNode task = tasks.get(taskId);
    if (task == null) {
      return null;
    }
    status(task, "TASK_STATE_CANCELED", "cancelled by the client");
    cancelled.add(task.path("jobId").asString());
    return task;
  }

  private void status(ObjectNode task, String state, @Nullable String text) {
    ObjectNode status = task.putObject("status");
    status.put("state", state);
    if (text != null) {
      status
          .putObject("message")
          .put("role", "ROLE_AGENT")
          .put("messageId", UUID.randomUUID().toString())
          .putArray("parts")
          .addObject()
          .put("text", text);
    }
  }

  private void answer(HttpExchange exchange, JsonNode body) throws IOException {
    byte[] bytes = json.writeValueAsBytes(body);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** Lets every held answer go and stops serving. */
  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    threads.shutdownNow();
  }
}
