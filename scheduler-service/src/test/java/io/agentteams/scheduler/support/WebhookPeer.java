package io.agentteams.scheduler.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A webhook agent on 127.0.0.1 that acts on each push as the job's input says: {@code complete}
 * answers completed with usage, {@code fail} answers failed, {@code hold} takes the job (202) and
 * keeps it, and {@code lose} never answers the first push (the scheduler's outcome is unknown),
 * then answers the reconciliation push from its own record.
 */
public final class WebhookPeer implements AutoCloseable {

  /** One push as it arrived. */
  public record Push(UUID jobId, String input, boolean reconcile, String leaseToken) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final JsonMapper json = JsonMapper.builder().build();
  private final List<Push> pushes = new CopyOnWriteArrayList<>();
  private final Map<UUID, String> done = new ConcurrentHashMap<>();
  private final CountDownLatch closing = new CountDownLatch(1);

  public WebhookPeer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  /** Where the agent is pushed to. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  /** Every push of the job, in order. */
  public List<Push> pushesOf(UUID jobId) {
    return pushes.stream().filter(push -> push.jobId().equals(jobId)).toList();
  }

  /** The newest push of the job, if any came. */
  public Optional<Push> lastPushOf(UUID jobId) {
    List<Push> of = pushesOf(jobId);
    return of.isEmpty() ? Optional.empty() : Optional.of(of.get(of.size() - 1));
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode data = json.readTree(exchange.getRequestBody().readAllBytes()).get("data");
      Push push =
          new Push(
              UUID.fromString(data.get("job_id").asString()),
              data.get("input").asString(),
              data.get("reconcile").asBoolean(),
              data.get("lease_token").asString());
      pushes.add(push);
      switch (push.input()) {
        case "complete" -> completed(exchange, push);
        case "fail" -> answer(exchange, 200, "{\"type\":\"failed\",\"error\":\"the agent broke\"}");
        case "lose" -> {
          if (push.reconcile() && done.containsKey(push.jobId())) {
            completed(exchange, push);
          } else {
            // The agent runs the job but its answer never reaches the scheduler.
            done.put(push.jobId(), "done: " + push.input());
            closing.await(60, TimeUnit.SECONDS);
          }
        }
        default -> answer(exchange, 202, "");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void completed(HttpExchange exchange, Push push) throws IOException {
    answer(
        exchange,
        200,
        "{\"type\":\"completed\",\"answer\":\"done: "
            + push.input()
            + "\",\"usage\":{\"tokens\":42,\"model\":\"peer-model\"}}");
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    threads.shutdownNow();
  }
}
