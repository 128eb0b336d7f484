package io.agentteams.sdk.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.problem.ConflictException;
import io.agentteams.sdk.problem.NotFoundException;
import io.agentteams.sdk.problem.RateLimitedException;
import io.agentteams.sdk.problem.TransportException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class HttpTransportTest {

  private HttpServer server;
  private final List<String> authorizations = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/conflict",
        exchange ->
            answer(
                exchange,
                409,
                "{\"type\":\"urn:agentteams:problem:stale-revision\",\"title\":\"Conflict\","
                    + "\"status\":409,\"detail\":\"task 4 is at revision 7\","
                    + "\"code\":\"stale-revision\",\"current\":{\"id\":4,\"revision\":7}}",
                null));
    server.createContext(
        "/missing", exchange -> answer(exchange, 404, "{\"status\":404,\"code\":\"x\"}", null));
    server.createContext(
        "/busy", exchange -> answer(exchange, 429, "{\"status\":429,\"code\":\"rate\"}", "7"));
    server.createContext(
        "/refresh",
        exchange -> {
          String auth = exchange.getRequestHeaders().getFirst("Authorization");
          authorizations.add(auth);
          if ("Bearer old".equals(auth)) {
            answer(exchange, 401, "{\"status\":401,\"code\":\"expired\"}", null);
          } else {
            answer(exchange, 200, "{\"ok\":true}", null);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private static void answer(HttpExchange exchange, int status, String body, String retryAfter)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/problem+json");
    if (retryAfter != null) {
      exchange.getResponseHeaders().set("Retry-After", retryAfter);
    }
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private HttpTransport transport(TokenSupplier tokens) {
    return new HttpTransport(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
        HttpClient.newHttpClient(),
        tokens,
        Json.mapper(),
        Duration.ofSeconds(5));
  }

  @Test
  void errorAnswersBecomeTheTypedExceptionOfTheirStatusWithTheProblemDetails() {
    HttpTransport http = transport(TokenSupplier.of("t"));
    assertThatThrownBy(() -> http.tree("POST", ApiPath.of("/conflict"), null))
        .isInstanceOfSatisfying(
            ConflictException.class,
            e -> {
              assertThat(e.is("stale-revision")).isTrue();
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.problem().detail()).isEqualTo("task 4 is at revision 7");
              assertThat(e.current("current").map(n -> n.get("revision").asLong())).contains(7L);
              assertThat(e.retryable()).isFalse();
            });
    assertThatThrownBy(() -> http.tree("GET", ApiPath.of("/missing"), null))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> http.tree("GET", ApiPath.of("/busy"), null))
        .isInstanceOfSatisfying(
            RateLimitedException.class,
            e -> {
              assertThat(e.retryAfter()).contains(Duration.ofSeconds(7));
              assertThat(e.retryable()).isTrue();
            });
  }

  @Test
  void aRefusedTokenIsHandedBackToItsSupplierAndTheCallTriedOnceWithTheNextOne() {
    AtomicReference<String> current = new AtomicReference<>("old");
    TokenSupplier refreshing =
        new TokenSupplier() {
          @Override
          public String token() {
            return current.get();
          }

          @Override
          public void rejected(String token) {
            current.compareAndSet(token, "new");
          }
        };
    JsonNode answer = transport(refreshing).tree("GET", ApiPath.of("/refresh"), null);
    assertThat(answer.get("ok").asBoolean()).isTrue();
    assertThat(authorizations).containsExactly("Bearer old", "Bearer new");
  }

  @Test
  void anUnreachableGatewayIsARetryableTransportFailure() {
    HttpTransport http = transport(TokenSupplier.of("t"));
    server.stop(0);
    assertThatThrownBy(() -> http.tree("GET", ApiPath.of("/missing"), null))
        .isInstanceOfSatisfying(TransportException.class, e -> assertThat(e.retryable()).isTrue());
  }
}
