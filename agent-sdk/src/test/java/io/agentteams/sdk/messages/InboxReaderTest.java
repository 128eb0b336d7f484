package io.agentteams.sdk.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.internal.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An inbox reader acknowledges each read with the next one, repeats the same acknowledgement after
 * a read that failed, and acknowledges its last read on request.
 */
class InboxReaderTest {

  private static final UUID TEAM = UUID.fromString("01234567-89ab-7def-8123-456789abcdef");

  private HttpServer server;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final AtomicInteger reads = new AtomicInteger();
  private volatile boolean failNext;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/api/v1/teams/" + TEAM + "/inbox",
        exchange -> {
          String body;
          int status;
          if (exchange.getRequestMethod().equals("POST")) {
            requests.add(
                "POST "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            status = 200;
            body = "{\"read_cursor\":2,\"acknowledged\":1}";
          } else {
            requests.add("GET " + exchange.getRequestURI().getQuery());
            if (failNext) {
              failNext = false;
              status = 503;
              body = "{\"type\":\"about:blank\",\"status\":503,\"code\":\"unavailable\"}";
            } else {
              int n = reads.incrementAndGet();
              status = 200;
              body = page(n);
            }
          }
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(status, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private static String page(int n) {
    return "{\"team_id\":\""
        + TEAM
        + "\",\"member\":\"m\",\"messages\":[],\"read_cursor\":"
        + n
        + ",\"has_more\":false,\"lease_id\":\"lease-"
        + n
        + "\",\"lease_expires_at\":\"2026-01-01T00:00:30Z\",\"leased\":1}";
  }

  @Test
  void eachReadAcknowledgesTheOneBeforeAndAFailedReadIsRepeatedWithTheSameAcknowledgement() {
    InboxReader reader = new Mailbox(transport()).reader(TEAM);

    assertThat(reader.next(null).leaseId()).isEqualTo("lease-1");
    assertThat(reader.next(5).leaseExpiresAt()).isNotNull();
    failNext = true;
    assertThatThrownBy(() -> reader.next(null)).isInstanceOf(RuntimeException.class);
    assertThat(reader.next(null).leased()).isEqualTo(1);
    reader.acknowledge();
    reader.acknowledge();

    assertThat(requests)
        .containsExactly(
            "GET ack=none",
            "GET ack=lease-1&limit=5",
            "GET ack=lease-2",
            "GET ack=lease-2",
            "POST {\"lease_id\":\"lease-3\"}");
  }

  private HttpTransport transport() {
    return new HttpTransport(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
        HttpClient.newHttpClient(),
        TokenSupplier.anonymous(),
        Json.mapper(),
        Duration.ofSeconds(5));
  }
}
