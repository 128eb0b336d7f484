package io.agentteams.platform.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * The guarded client against a server on loopback: each connection resolves once, checks what it
 * got and connects to exactly that; a name that later resolves to a refused address is refused
 * before any connection; redirects are not followed; large answers are cut off. Every address a
 * test resolves to is either loopback (allowed for the test) or refused before a connection is
 * attempted.
 */
class OutboundHttpTest {

  private static final OutboundHttp.Limits LIMITS =
      new OutboundHttp.Limits(Duration.ofSeconds(5), Duration.ofSeconds(10), 1024);

  private HttpServer server;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.add(exchange.getRequestURI().getPath());
          exchange.getResponseHeaders().add("Connection", "close");
          byte[] body;
          int status = 200;
          switch (exchange.getRequestURI().getPath()) {
            case "/redirect" -> {
              exchange.getResponseHeaders().add("Location", "http://10.0.0.1/");
              status = 302;
              body = new byte[0];
            }
            case "/large" -> body = "x".repeat(4096).getBytes(StandardCharsets.UTF_8);
            default -> body = "ok".getBytes(StandardCharsets.UTF_8);
          }
          exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  private int port() {
    return server.getAddress().getPort();
  }

  @Test
  void eachConnectionChecksWhatTheNameResolvesToAndRefusesARebindBeforeConnecting() {
    Deque<InetAddress> answers = new ArrayDeque<>();
    answers.add(address(127, 0, 0, 1));
    answers.add(address(10, 0, 0, 7));
    AtomicInteger lookups = new AtomicInteger();
    OutboundHttp http =
        new OutboundHttp(
            new OutboundPolicy(Set.of(), List.of(Cidr.parse("127.0.0.1/32"))),
            host -> {
              lookups.incrementAndGet();
              return List.of(answers.remove());
            },
            Runnable::run);
    WebClient client = http.client("test", LIMITS);
    String url = "http://agent.rebinding.test:" + port() + "/hook";

    assertThat(client.get().uri(url).retrieve().bodyToMono(String.class).block()).isEqualTo("ok");
    assertThatThrownBy(() -> client.get().uri(url).retrieve().bodyToMono(String.class).block())
        .hasRootCauseInstanceOf(OutboundRefused.class)
        .rootCause()
        .hasMessageContaining("(10.0.0.7) is private");

    assertThat(lookups).hasValue(2);
    assertThat(requests).containsExactly("/hook");
  }

  @Test
  void loopbackIsRefusedUnlessTheOperatorAllowsIt() {
    OutboundHttp guarded =
        new OutboundHttp(OutboundPolicy.publicOnly(), HostLookup.system(), Runnable::run);
    assertThatThrownBy(
            () ->
                guarded
                    .client("test", LIMITS)
                    .get()
                    .uri("http://127.0.0.1:" + port() + "/hook")
                    .retrieve()
                    .bodyToMono(String.class)
                    .block())
        .isInstanceOf(OutboundRefused.class)
        .hasMessageContaining("127.0.0.1 is loopback");
    assertThat(requests).isEmpty();
  }

  @Test
  void redirectsAreNotFollowedAndLargeAnswersAreCutOff() {
    OutboundHttp http =
        new OutboundHttp(
            new OutboundPolicy(Set.of(), List.of(Cidr.parse("127.0.0.1"))),
            HostLookup.system(),
            Runnable::run);
    WebClient client = http.client("test", LIMITS);

    Integer status =
        client
            .get()
            .uri("http://127.0.0.1:" + port() + "/redirect")
            .exchangeToMono(
                response -> response.releaseBody().thenReturn(response.statusCode().value()))
            .block();
    assertThat(status).isEqualTo(302);
    assertThat(requests).containsExactly("/redirect");

    assertThatThrownBy(
            () ->
                client
                    .get()
                    .uri("http://127.0.0.1:" + port() + "/large")
                    .retrieve()
                    .bodyToMono(String.class)
                    .block())
        .isInstanceOfAny(WebClientResponseException.class, RuntimeException.class)
        .hasMessageContaining("1024");
  }

  @Test
  void aRegisteredUrlIsVettedByItsFormAndByWhatItsHostResolvesToNow() {
    OutboundHttp http =
        new OutboundHttp(
            OutboundPolicy.publicOnly(),
            host ->
                switch (host) {
                  case "internal.example.test" ->
                      List.of(address(93, 184, 216, 34), address(169, 254, 169, 254));
                  case "public.example.test" -> List.of(address(93, 184, 216, 34));
                  default -> throw new java.net.UnknownHostException(host);
                },
            Runnable::run);

    assertThatThrownBy(() -> http.vet("https://internal.example.test/hook").block())
        .isInstanceOf(OutboundRefused.class)
        .hasMessageContaining("(169.254.169.254) is link-local and cloud metadata");
    assertThatThrownBy(() -> http.vet("http://10.1.2.3/hook").block())
        .isInstanceOf(OutboundRefused.class)
        .hasMessageContaining("private");
    assertThat(http.vet("https://public.example.test/hook").block())
        .hasToString("https://public.example.test/hook");
    assertThat(http.vet("https://not-yet.example.test/hook").block())
        .hasToString("https://not-yet.example.test/hook");
    assertThat(requests).isEmpty();
  }

  private static InetAddress address(int a, int b, int c, int d) {
    try {
      return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
