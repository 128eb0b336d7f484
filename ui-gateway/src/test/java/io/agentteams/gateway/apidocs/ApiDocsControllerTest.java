package io.agentteams.gateway.apidocs;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import io.agentteams.gateway.routing.ServiceEndpoints;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.web.reactive.function.client.WebClient;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The merged API description when a service does not answer: it is left out and named, and the log
 * warns about it, but not about a first description that is only slow to be written (a service
 * writes its own on the first request after its start).
 */
class ApiDocsControllerTest {

  private static final String DOC =
      "{\"openapi\":\"3.1.0\",\"paths\":{\"/api/v1/things\":{\"get\":{}}}}";

  private final List<HttpServer> servers = new ArrayList<>();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger log = (Logger) LoggerFactory.getLogger(ApiDocsController.class);

  @BeforeEach
  void listen() {
    logged.start();
    log.addAppender(logged);
  }

  @AfterEach
  void stop() {
    log.detachAppender(logged);
    servers.forEach(server -> server.stop(0));
  }

  @Test
  void aServiceSlowTheFirstTimeIsLeftOutAndNamedAndWarnedAboutOnlyFromTheSecondTime()
      throws Exception {
    ApiDocsController docs =
        controller(
            new ServiceEndpoints(silent(), answering(), answering(), answering()),
            new ApiDocsProperties(Duration.ofMillis(300), Duration.ZERO));

    ObjectNode first = docs.apiDocs().block(Duration.ofSeconds(10));
    assertThat(first.get("x-unavailable").toString()).isEqualTo("[\"team-service\"]");
    assertThat(first.get("paths").has("/api/v1/things")).isTrue();
    assertThat(levelsOfLinesAbout("team-service")).containsExactly(Level.INFO);

    ObjectNode second = docs.apiDocs().block(Duration.ofSeconds(10));
    assertThat(second.get("x-unavailable").toString()).isEqualTo("[\"team-service\"]");
    assertThat(levelsOfLinesAbout("team-service")).containsExactly(Level.INFO, Level.WARN);
    assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.WARN).hasSize(1);
  }

  @Test
  void aServiceThatCannotBeReachedIsLeftOutNamedAndWarnedAboutAtOnce() throws Exception {
    ApiDocsController docs =
        controller(
            new ServiceEndpoints(answering(), answering(), answering(), down()),
            new ApiDocsProperties(Duration.ofSeconds(30), Duration.ZERO));

    ObjectNode merged = docs.apiDocs().block(Duration.ofSeconds(10));

    assertThat(merged.get("x-unavailable").toString()).isEqualTo("[\"scheduler-service\"]");
    assertThat(levelsOfLinesAbout("scheduler-service")).containsExactly(Level.WARN);
  }

  @Test
  void aServicesDescriptionIsWaitedForThirtySecondsAndTheMergedOneKeptThirtySecondsByDefault() {
    ApiDocsProperties defaults =
        new Binder(new MapConfigurationPropertySource(Map.of()))
            .bindOrCreate("agentteams.gateway.api-docs", ApiDocsProperties.class);

    assertThat(defaults.fetchTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(defaults.cacheFor()).isEqualTo(Duration.ofSeconds(30));
  }

  private ApiDocsController controller(ServiceEndpoints services, ApiDocsProperties settings)
      throws Exception {
    ApiDocsController docs =
        new ApiDocsController(
            WebClient.builder(), services, settings, JsonMapper.builder().build());
    // The gateway's own operations, which it reads from its own server.
    docs.servedOn(answering().getPort());
    return docs;
  }

  private List<Level> levelsOfLinesAbout(String service) {
    return logged.list.stream()
        .filter(e -> e.getFormattedMessage().contains(service))
        .map(ILoggingEvent::getLevel)
        .toList();
  }

  /** A service that serves its description (and the gateway its own operations'). */
  private URI answering() throws Exception {
    HttpServer server = server();
    server.createContext(
        "/v3/api-docs",
        exchange -> {
          byte[] body = DOC.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** A service that takes every request and answers none, as one still writing its description. */
  private URI silent() throws Exception {
    HttpServer server = server();
    server.createContext("/v3/api-docs", exchange -> {});
    server.start();
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** An address where nothing listens any more. */
  private static URI down() throws Exception {
    try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return URI.create("http://127.0.0.1:" + gone.getLocalPort());
    }
  }

  private HttpServer server() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    servers.add(server);
    return server;
  }
}
