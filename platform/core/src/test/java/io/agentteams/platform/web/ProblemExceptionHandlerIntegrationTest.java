package io.agentteams.platform.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.embedded.FreePorts;
import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.platform.test.RealInfrastructure;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Every error a service can answer is Problem Details, including those no controller advice sees:
 * unknown paths and methods, unsupported media types, a database that cannot be reached and
 * failures nobody anticipated.
 */
@RealInfrastructure
@SpringBootTest(
    classes = ProblemExceptionHandlerIntegrationTest.SampleService.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.application.name=sample-service",
      "spring.jackson.property-naming-strategy=SNAKE_CASE"
    })
@AutoConfigureWebTestClient(timeout = "PT30S")
class ProblemExceptionHandlerIntegrationTest {

  /** TEST ONLY: a fresh gateway key's public half, as every service must be given. */
  @DynamicPropertySource
  static void keys(DynamicPropertyRegistry registry) {
    registry.add(
        "agentteams.identity.internal-verification-keys",
        () ->
            TokenKeys.publicSet(
                TokenKeys.internalSigning(TokenKeys.generateInternalSigning(), "test")));
  }

  @SpringBootApplication
  @Import(Samples.class)
  static class SampleService {}

  @RestController
  public static class Samples {

    private final PostgresqlConnectionFactory databaseThatIsDown =
        new PostgresqlConnectionFactory(
            PostgresqlConnectionConfiguration.builder()
                .host("127.0.0.1")
                .port(FreePorts.next())
                .username("postgres")
                .database("gone")
                .connectTimeout(Duration.ofSeconds(5))
                .build());

    @GetMapping("/samples/widget")
    public Mono<Map<String, String>> widget() {
      return Mono.just(Map.of("name", "widget"));
    }

    @PostMapping(path = "/samples/widget", consumes = MediaType.APPLICATION_JSON_VALUE)
    public Mono<Map<String, String>> save(@RequestBody Map<String, String> widget) {
      return Mono.just(widget);
    }

    @PostMapping(path = "/samples/budgets", consumes = MediaType.APPLICATION_JSON_VALUE)
    public Mono<Budget> budget(@RequestBody Budget budget) {
      return Mono.just(budget);
    }

    /** A body with integral, fractional and nested numbers. */
    public record Budget(
        @org.jspecify.annotations.Nullable Long maxTokens,
        @org.jspecify.annotations.Nullable Double share,
        @org.jspecify.annotations.Nullable Limits limits) {}

    /** Nested numbers. */
    public record Limits(int maxWallSeconds) {}

    @GetMapping("/samples/things/{thingId}")
    public Mono<String> thing(@PathVariable UUID thingId) {
      return Mono.just(thingId.toString());
    }

    @GetMapping("/samples/broken")
    public Mono<String> broken() {
      return Mono.error(new IllegalStateException("secret internal detail"));
    }

    @GetMapping("/samples/from-the-database")
    public Mono<Long> fromTheDatabase() {
      return Mono.from(databaseThatIsDown.create())
          .flatMap(c -> Mono.from(c.createStatement("SELECT 1").execute()))
          .map(result -> 1L);
    }
  }

  @Autowired WebTestClient web;
  @LocalServerPort int port;

  @Test
  void anUnknownPathIsA404Problem() {
    JsonNode problem = problem(web.get().uri("/samples/nowhere").exchange(), 404);
    assertThat(problem.get("code").asString()).isEqualTo("not-found");
  }

  @Test
  void aMethodThePathDoesNotTakeIsA405ProblemNamingTheAllowedOnes() {
    var exchange = web.delete().uri("/samples/widget").exchange();
    exchange.expectHeader().value(HttpHeaders.ALLOW, allow -> assertThat(allow).contains("GET"));
    assertThat(problem(exchange, 405).get("code").asString()).isEqualTo("method-not-allowed");
  }

  @Test
  void aBodyOfAnUnsupportedMediaTypeIsA415Problem() {
    var exchange =
        web.post()
            .uri("/samples/widget")
            .contentType(MediaType.TEXT_PLAIN)
            .bodyValue("name=widget")
            .exchange();
    assertThat(problem(exchange, 415).get("code").asString()).isEqualTo("unsupported-media-type");
  }

  @Test
  void numbersAreNumbersOfTheFieldsKindAndARefusalNamesTheField() {
    Map<String, String> refused =
        Map.of(
            "{\"max_tokens\": 1.5}", "max_tokens",
            "{\"max_tokens\": 1.0}", "max_tokens",
            "{\"max_tokens\": \"100\"}", "max_tokens",
            "{\"share\": \"0.5\"}", "share",
            "{\"limits\": {\"max_wall_seconds\": 2.5}}", "limits.max_wall_seconds",
            "{\"limits\": {\"max_wall_seconds\": \"60\"}}", "limits.max_wall_seconds");
    refused.forEach(
        (body, field) -> {
          JsonNode problem =
              problem(
                  web.post()
                      .uri("/samples/budgets")
                      .contentType(MediaType.APPLICATION_JSON)
                      .bodyValue(body)
                      .exchange(),
                  400);
          assertThat(problem.get("code").asString()).as(body).isEqualTo("unreadable-request");
          assertThat(problem.get("field").asString()).as(body).isEqualTo(field);
          assertThat(problem.get("detail").asString()).as(body).startsWith(field + " must be");
        });
    web.post()
        .uri("/samples/budgets")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue("{\"max_tokens\": 100, \"share\": 1, \"limits\": {\"max_wall_seconds\": 60}}")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.max_tokens")
        .isEqualTo(100)
        .jsonPath("$.share")
        .isEqualTo(1.0)
        .jsonPath("$.limits.max_wall_seconds")
        .isEqualTo(60);
  }

  @Test
  void aPathIdThatDecodesToNothingIsA400ProblemNotAServerError() {
    var exchange =
        web.get().uri(URI.create("http://127.0.0.1:" + port + "/samples/things/%20")).exchange();
    assertThat(problem(exchange, 400).get("code").asString()).isEqualTo("invalid-path");
  }

  @Test
  void aDatabaseThatIsDownIsA503ProblemWithRetryAfter() {
    var exchange = web.get().uri("/samples/from-the-database").exchange();
    exchange.expectHeader().valueEquals(HttpHeaders.RETRY_AFTER, "1");
    assertThat(problem(exchange, 503).get("code").asString()).isEqualTo("unavailable");
  }

  @Test
  void anUnexpectedFailureIsA500ProblemWithAReferenceAndNothingInternal() {
    var exchange = web.get().uri("/samples/broken").exchange();
    JsonNode problem = problem(exchange, 500);
    assertThat(problem.get("code").asString()).isEqualTo("internal-error");
    assertThat(problem.get("reference").asString()).isNotBlank();
    assertThat(problem.toString()).doesNotContain("secret internal detail");
  }

  @Test
  void aRequestLineLongerThanTheServerReadsIsA414ProblemOnAFreshConnection() throws Exception {
    HttpResponse<String> response = firstRequestOfAConnection("/samples/" + "x".repeat(80_000), "");
    assertThat(response.statusCode()).isEqualTo(414);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(response.body()).contains("\"code\":\"uri-too-long\"", "\"status\":414");
  }

  /**
   * A client still sending its body when the answer comes must be able to read the answer: had the
   * server closed at once, the bytes arriving after would make it reset the connection, and the
   * client would lose the answer it had already been sent.
   */
  @Test
  void aClientStillSendingItsBodyReadsTheAnswerToARequestLineTooLong() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /samples/"
                  + "x".repeat(8_000)
                  + " HTTP/1.1\r\nHost: x\r\n"
                  + "Content-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      await().atMost(Duration.ofSeconds(30)).until(() -> in.available() > 0);
      // The answer is here; the client goes on sending its body before it reads.
      byte[] more = new byte[64 * 1024];
      Arrays.fill(more, (byte) 'y');
      for (int i = 0; i < 16; i++) {
        out.write(more);
      }
      out.flush();
      String answer = new String(in.readNBytes(64), StandardCharsets.US_ASCII);
      assertThat(answer).startsWith("HTTP/1.1 414");
    }
  }

  @Test
  void headersLargerThanTheServerReadsAreA431ProblemOnAFreshConnection() throws Exception {
    HttpResponse<String> response =
        firstRequestOfAConnection("/samples/widget", "y".repeat(20_000));
    assertThat(response.statusCode()).isEqualTo(431);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(response.body()).contains("\"code\":\"headers-too-large\"");
  }

  /** A new client, so that the request is the first its connection carries. */
  private HttpResponse<String> firstRequestOfAConnection(String path, String bigHeader)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (!bigHeader.isEmpty()) {
      request.header("X-Big", bigHeader);
    }
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .build()
        .send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode problem(WebTestClient.ResponseSpec exchange, int status) {
    return exchange
        .expectStatus()
        .isEqualTo(status)
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .expectBody(JsonNode.class)
        .returnResult()
        .getResponseBody();
  }
}
