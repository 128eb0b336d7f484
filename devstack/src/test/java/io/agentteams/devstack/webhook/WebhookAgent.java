package io.agentteams.devstack.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A webhook agent on 127.0.0.1: it records every push with the verdict of an independent Standard
 * Webhooks verification at arrival, and answers as its behaviour says.
 */
public final class WebhookAgent implements AutoCloseable {

  /** One push as it arrived. */
  public record Push(
      String id,
      String timestamp,
      String signature,
      byte[] body,
      JsonNode json,
      Instant arrivedAt,
      Optional<String> refusal) {

    public JsonNode data() {
      return json.get("data");
    }

    public String jobId() {
      return data().get("job_id").asString();
    }

    public String input() {
      return data().get("input").asString();
    }

    boolean reconcile() {
      return data().get("reconcile").asBoolean();
    }

    String leaseToken() {
      return data().get("lease_token").asString();
    }
  }

  /** An answer: status, headers and a JSON body (empty for none). */
  public record Reply(int status, Map<String, String> headers, String body) {
    public static Reply json(int status, String body) {
      return new Reply(status, Map.of(), body);
    }
  }

  /** How the agent answers a push; {@code earlier} counts pushes with the same id before it. */
  @FunctionalInterface
  public interface Behaviour {
    Reply answer(Push push, int earlier) throws Exception;
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<Push> pushes = new CopyOnWriteArrayList<>();
  private final JsonMapper json = JsonMapper.builder().build();
  private volatile Behaviour behaviour;
  private volatile @Nullable StandardWebhooksVerifier verifier;

  public WebhookAgent(Behaviour behaviour) throws IOException {
    this.behaviour = behaviour;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
    server.setExecutor(threads);
    server.createContext("/hook", this::handle);
    server.start();
  }

  /** The endpoint to register. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  /** The secrets the agent verifies pushes with from now on. */
  public void verifyWith(List<String> secrets) {
    verifier = new StandardWebhooksVerifier(secrets);
  }

  void behave(Behaviour next) {
    behaviour = next;
  }

  List<Push> pushes() {
    return List.copyOf(pushes);
  }

  public List<Push> pushesOf(String jobId) {
    return pushes.stream().filter(p -> p.jobId().equals(jobId)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      Instant now = Instant.now();
      String id = exchange.getRequestHeaders().getFirst("webhook-id");
      String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
      String signature = exchange.getRequestHeaders().getFirst("webhook-signature");
      StandardWebhooksVerifier current = verifier;
      Optional<String> refusal =
          current == null
              ? Optional.of("no secret yet")
              : current.refusal(id, timestamp, signature, body, now);
      Push push =
          new Push(
              id,
              timestamp,
              signature,
              body,
              json.readTree(new String(body, StandardCharsets.UTF_8)),
              now,
              refusal);
      int earlier = (int) pushes.stream().filter(p -> p.id().equals(id)).count();
      pushes.add(push);
      Reply reply;
      try {
        reply = behaviour.answer(push, earlier);
      } catch (Exception e) {
        reply = Reply.json(500, "");
      }
      reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
      byte[] answer = reply.body().getBytes(StandardCharsets.UTF_8);
      if (answer.length > 0) {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
      }
      exchange.sendResponseHeaders(reply.status(), answer.length == 0 ? -1 : answer.length);
      if (answer.length > 0) {
        exchange.getResponseBody().write(answer);
      }
    } catch (IOException e) {
      // The scheduler stopped waiting (a time-out): nothing to answer to.
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
