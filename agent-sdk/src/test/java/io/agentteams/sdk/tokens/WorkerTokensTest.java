package io.agentteams.sdk.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.internal.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A worker token renews itself through the refresh path before it expires, and when refused. */
class WorkerTokensTest {

  private HttpServer server;
  private final List<String> refreshedWith = new CopyOnWriteArrayList<>();
  private final AtomicInteger minted = new AtomicInteger();
  private volatile boolean revoked;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/api/v1/agents/scout/tokens/refresh",
        exchange -> {
          refreshedWith.add(exchange.getRequestHeaders().getFirst("Authorization"));
          String body =
              revoked
                  ? "{\"status\":401,\"code\":\"token-revoked\"}"
                  : "{\"access_token\":\"t"
                      + minted.incrementAndGet()
                      + "\",\"token_type\":\"Bearer\",\"expires_in\":3600}";
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(revoked ? 401 : 201, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void renewsWithTheCurrentTokenOnceAFifthOfItsLifeRemainsAndWhenRefused() {
    MovableClock clock = new MovableClock();
    WorkerTokens tokens =
        WorkerTokens.from(transport(), "scout", new IssuedToken("t0", "Bearer", 3600), clock);

    clock.advance(Duration.ofMinutes(47));
    assertThat(tokens.token()).isEqualTo("t0");
    assertThat(refreshedWith).isEmpty();

    clock.advance(Duration.ofMinutes(2)); // 49 of 60 minutes: within the last fifth
    assertThat(tokens.token()).isEqualTo("t1");
    assertThat(refreshedWith).containsExactly("Bearer t0");
    assertThat(tokens.token()).isEqualTo("t1");

    tokens.rejected("t1");
    assertThat(tokens.token()).isEqualTo("t2");
    assertThat(refreshedWith).containsExactly("Bearer t0", "Bearer t1");

    // A revoked token gets no renewal: the supplier keeps it, and the API refuses the calls.
    revoked = true;
    tokens.rejected("t2");
    assertThat(tokens.token()).isEqualTo("t2");
  }

  private HttpTransport transport() {
    return new HttpTransport(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
        HttpClient.newHttpClient(),
        TokenSupplier.anonymous(),
        Json.mapper(),
        Duration.ofSeconds(5));
  }

  private static final class MovableClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
