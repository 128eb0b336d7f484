package io.agentteams.gateway;

import static io.agentteams.gateway.support.EdgeCalls.devToken;
import static io.agentteams.gateway.support.EdgeCalls.mcp;
import static io.agentteams.gateway.support.EdgeCalls.memberToken;
import static io.agentteams.gateway.support.EdgeCalls.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.gateway.console.api.ConsoleApi;
import io.agentteams.gateway.identity.EdgeTokens;
import io.agentteams.gateway.limits.LoopbackCalls;
import io.agentteams.gateway.support.StubServices;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.test.RealInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Each owner has one request budget, shared by every token it holds or minted; unauthenticated
 * requests share their client address's budget. Beyond it the gateway answers 429 with Retry-After.
 */
@RealInfrastructure
@SpringBootTest(
    classes = GatewayApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=" + GatewayApplication.CONFIG_NAME,
      "agentteams.gateway.identity.dev-identity-enabled=true",
      // One request per 100 s after a burst of 3: no refill can happen during the test.
      "agentteams.gateway.limits.requests-per-second=0.01",
      "agentteams.gateway.limits.burst=3",
      "agentteams.gateway.limits.anonymous-requests-per-second=0.01",
      "agentteams.gateway.limits.anonymous-burst=3",
      "agentteams.gateway.limits.max-tracked-principals=32",
      // Each test speaks from an address of its own (X-Forwarded-For, believed from this host as
      // from a trusted proxy), so their budgets are apart.
      "agentteams.gateway.forwarded.trusted-proxies=127.0.0.1/32"
    })
@AutoConfigureWebTestClient(timeout = "30s")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RateLimitIntegrationTest {

  static final StubServices services = new StubServices();

  @DynamicPropertySource
  static void endpoints(DynamicPropertyRegistry registry) {
    registry.add("agentteams.gateway.services.team", () -> services.url("team"));
  }

  @AfterAll
  static void stop() {
    services.close();
  }

  private static final AtomicInteger ADDRESSES = new AtomicInteger();
  private static final Duration MINUTES = Duration.ofMinutes(5);

  @Autowired WebTestClient server;
  @Autowired EdgeTokens tokens;
  @LocalServerPort int port;
  WebTestClient web;
  String address;

  @BeforeEach
  void clear() {
    services.clear();
    address = "198.51.100." + ADDRESSES.incrementAndGet();
    web =
        server
            .mutate()
            .responseTimeout(Duration.ofSeconds(30))
            .defaultHeader("X-Forwarded-For", address)
            .build();
  }

  /**
   * The issue's volume: 1,000 requests with 1,000 random bearer tokens and 1,000 without a header,
   * from one address, fired 64 at a time over one connection pool, share that address's one budget
   * of 3. Every other answer is 429 Problem Details, and none reaches a service.
   */
  @Test
  void randomTokensAndNoTokenFromOneAddressAreLimitedAsOneClient() {
    ConnectionProvider pool =
        ConnectionProvider.builder("rate-limit-flood").maxConnections(64).build();
    try {
      WebClient client =
          WebClient.builder()
              .baseUrl("http://127.0.0.1:" + port)
              .clientConnector(new ReactorClientHttpConnector(HttpClient.create(pool)))
              .defaultHeader("X-Forwarded-For", address)
              .build();
      List<Answer> answers =
          Flux.range(0, 2000)
              .flatMap(
                  i -> {
                    var request = client.get().uri("/api/v1/teams");
                    if (i % 2 == 0) {
                      request = request.header("Authorization", "Bearer " + UUID.randomUUID());
                    }
                    return request.exchangeToMono(
                        response ->
                            response
                                .bodyToMono(String.class)
                                .defaultIfEmpty("")
                                .map(
                                    body ->
                                        new Answer(
                                            response.statusCode().value(),
                                            response
                                                .headers()
                                                .contentType()
                                                .map(MediaType::toString)
                                                .orElse(""),
                                            body)));
                  },
                  64)
              .collectList()
              .block(Duration.ofMinutes(3));
      Map<Integer, Long> statuses =
          answers.stream().collect(Collectors.groupingBy(Answer::status, Collectors.counting()));
      assertThat(statuses)
          .as("1,000 random tokens and 1,000 requests without one: one budget of 3")
          .containsOnlyKeys(401, 429)
          .containsEntry(401, 3L)
          .containsEntry(429, 1997L);
      assertThat(answers.stream().filter(answer -> answer.status() == 429))
          .allSatisfy(
              answer -> {
                assertThat(answer.contentType()).startsWith("application/problem+json");
                assertThat(answer.body()).contains("\"code\":\"rate-limited\"");
              });
    } finally {
      pool.dispose();
    }
    assertThat(services.hits()).isEmpty();
    // Another address is a client of its own.
    server
        .get()
        .uri("/api/v1/teams")
        .header("X-Forwarded-For", "203.0.113.9")
        .exchange()
        .expectStatus()
        .isUnauthorized();
  }

  private record Answer(int status, String contentType, String body) {}

  @Test
  void everyTokenOfAnOwnerSharesTheOwnersBudget() {
    String owner = "minter-" + address;
    List<String> minted = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      minted.add(tokens.issue(new Caller.Worker(owner, "agent-" + i), Duration.ofMinutes(5)));
      minted.add(
          tokens.issue(
              new Caller.Member(owner, StubServices.TEAM, "member-" + i, null),
              Duration.ofMinutes(5)));
    }
    List<Integer> statuses = new ArrayList<>();
    for (String token : minted) {
      statuses.add(
          web.get()
              .uri("/api/v1/teams")
              .header("Authorization", "Bearer " + token)
              .exchange()
              .returnResult(Void.class)
              .getStatus()
              .value());
    }
    assertThat(statuses.stream().filter(s -> s == 429).count())
        .as("50 tokens of one owner, one budget of 3: %s", statuses)
        .isEqualTo(47);
  }

  @Test
  @Order(Integer.MAX_VALUE) // last: it fills the table of principals on purpose
  void aFloodOfPrincipalsDoesNotResetABusyPrincipalsBucket() {
    String steady = tokens.issue(new Caller.Owner("steady-" + address), Duration.ofMinutes(5));
    for (int i = 0; i < 3; i++) {
      get(steady).expectStatus().isOk();
    }
    get(steady).expectStatus().isEqualTo(429);
    // Three times as many principals as buckets are kept (max-tracked-principals=32): those beyond
    // the room wait for it, and none is given a bucket by pushing out the busy one.
    int served = 0;
    for (int i = 0; i < 96; i++) {
      int status =
          get(tokens.issue(new Caller.Owner("flood-" + address + "-" + i), MINUTES))
              .returnResult(Void.class)
              .getStatus()
              .value();
      if (status != 429) {
        served++;
      }
    }
    assertThat(served).isLessThan(32);
    get(steady).expectStatus().isEqualTo(429);
  }

  private WebTestClient.ResponseSpec get(String token) {
    return web.get().uri("/api/v1/teams").header("Authorization", "Bearer " + token).exchange();
  }

  @Test
  void aTokenOverItsBudgetGets429WithRetryAfterWhileOtherTokensAreServed() {
    String busy = devToken(web, "busy");
    String calm = devToken(web, "calm");
    for (int i = 0; i < 3; i++) {
      web.get()
          .uri("/api/v1/teams")
          .header("Authorization", "Bearer " + busy)
          .exchange()
          .expectStatus()
          .isOk();
    }
    String retryAfter =
        web.get()
            .uri("/api/v1/teams")
            .header("Authorization", "Bearer " + busy)
            .exchange()
            .expectStatus()
            .isEqualTo(429)
            .expectBody()
            .jsonPath("$.code")
            .isEqualTo("rate-limited")
            .returnResult()
            .getResponseHeaders()
            .getFirst("Retry-After");
    assertThat(Long.parseLong(retryAfter)).isPositive();
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer " + calm)
        .exchange()
        .expectStatus()
        .isOk();
    assertThat(services.hits()).hasSize(4);
  }

  @Test
  void anMcpToolCallCountsOnceAgainstItsOwnersBudget() {
    String owner = devToken(web, StubServices.OWNER);
    String member = memberToken(web, owner);
    services.clear();
    // The burst is 3 and minting the member token took one: two tool calls, each made by the
    // gateway as a REST call back through itself, reach the service; counting the loop-back too
    // would refuse the second one.
    for (int id = 1; id <= 2; id++) {
      Map<?, ?> result = (Map<?, ?>) mcp(web, member, readTeamState(id)).get("result");
      assertThat(result.get("isError")).as("tool call %s", id).isEqualTo(false);
    }
    assertThat(services.hits()).hasSize(2);
    web.post()
        .uri("/api/v1/mcp")
        .header("Authorization", "Bearer " + member)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(readTeamState(4))
        .exchange()
        .expectStatus()
        .isEqualTo(429);
    assertThat(services.hits()).hasSize(2);
  }

  @Test
  void theConsolesCallsCountAgainstTheSignedInOwnersBudget(@Autowired ConsoleApi console) {
    Caller.Owner owner = new Caller.Owner("console-" + UUID.randomUUID());
    // Unlike an MCP tool call, a console page is no API request of its own: each call it makes
    // back through the gateway is one the owner could have made, and counts as one.
    for (int call = 1; call <= 3; call++) {
      assertThat(console.get(owner, "/api/v1/teams").block(MINUTES).status())
          .as("call %s", call)
          .isEqualTo(200);
    }
    assertThat(console.get(owner, "/api/v1/teams").block(MINUTES).status()).isEqualTo(429);
  }

  @Test
  void aClientCannotPassItsRequestsOffAsTheGatewaysOwnCalls() {
    String forger = devToken(web, "forger");
    for (int i = 0; i < 3; i++) {
      web.get()
          .uri("/api/v1/teams")
          .header("Authorization", "Bearer " + forger)
          .header(LoopbackCalls.HEADER, "guessed-" + i)
          .exchange()
          .expectStatus()
          .isOk();
    }
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer " + forger)
        .header(LoopbackCalls.HEADER, "guessed")
        .exchange()
        .expectStatus()
        .isEqualTo(429);
  }

  private static Map<String, ?> readTeamState(int id) {
    return toolCall(
        id, "read_team_state", Map.of("team_id", StubServices.TEAM.toString(), "kind", "finding"));
  }
}
