package io.agentteams.gateway;

import static io.agentteams.gateway.support.EdgeCalls.devToken;
import static io.agentteams.gateway.support.EdgeCalls.mcp;
import static io.agentteams.gateway.support.EdgeCalls.memberToken;
import static io.agentteams.gateway.support.EdgeCalls.mint;
import static io.agentteams.gateway.support.EdgeCalls.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.agentteams.gateway.headers.SecurityHeadersFilter;
import io.agentteams.gateway.identity.EdgeTokens;
import io.agentteams.gateway.identity.RevokedTokens;
import io.agentteams.gateway.limits.StreamSlots;
import io.agentteams.gateway.support.StubServices;
import io.agentteams.gateway.support.TestIdentityProvider;
import io.agentteams.gateway.tools.ToolCatalog;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.testidentity.TestIdentity;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementServerProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;

/**
 * The edge on its own: who gets in, what they become inside, where requests go, what is refused.
 */
@RealInfrastructure
@SpringBootTest(
    classes = GatewayApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=" + GatewayApplication.CONFIG_NAME,
      "agentteams.gateway.identity.dev-identity-enabled=true",
      "agentteams.gateway.identity.oidc.issuer-uri=" + TestIdentityProvider.ISSUER,
      "agentteams.gateway.identity.oidc.audience=agent-teams",
      "agentteams.gateway.limits.max-body-bytes=2000",
      // Many tests share one address; the address budget has its own test.
      "agentteams.gateway.limits.anonymous-burst=100000"
    })
@AutoConfigureWebTestClient(timeout = "30s")
class GatewayEdgeIntegrationTest {

  static final StubServices services = new StubServices();
  static final TestIdentityProvider idp = new TestIdentityProvider();

  @DynamicPropertySource
  static void endpoints(DynamicPropertyRegistry registry) {
    registry.add("agentteams.gateway.services.team", () -> services.url("team"));
    registry.add("agentteams.gateway.services.mailbox", () -> services.url("mailbox"));
    registry.add("agentteams.gateway.services.task-board", () -> services.url("task-board"));
    registry.add("agentteams.gateway.services.scheduler", () -> services.url("scheduler"));
    registry.add("agentteams.gateway.identity.oidc.jwk-set-uri", idp::jwkSetUri);
  }

  @AfterAll
  static void stop() {
    services.close();
    idp.close();
  }

  @Autowired WebTestClient web;
  @Autowired RevokedTokens revoked;
  @Autowired MeterRegistry meters;
  @Autowired ToolCatalog catalog;
  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  @Autowired ManagementServerProperties management;

  /**
   * Started with its shipped defaults (no management setting given here: the test moves the
   * management port to a free one as it does the public port, and keeps it apart), the gateway's
   * public port serves no actuator, and its management port is on loopback and shows which checks
   * are up, never what they found.
   */
  @Test
  void withItsShippedDefaultsThePublicPortServesNoActuatorAndTheManagementPortIsLoopbackOnly() {
    for (String path :
        List.of(
            "/actuator/health",
            "/actuator/prometheus",
            "/actuator",
            "/actuator/health/readiness",
            "/actuator/info")) {
      web.get()
          .uri(path)
          .exchange()
          .expectStatus()
          .value(status -> assertThat(status).as(path).isEqualTo(404));
    }
    assertThat(managementPort).isNotEqualTo(port);
    assertThat(management.getAddress()).isNotNull();
    assertThat(management.getAddress().isLoopbackAddress()).isTrue();
    String health =
        WebTestClient.bindToServer()
            .baseUrl("http://127.0.0.1:" + managementPort)
            .build()
            .get()
            .uri("/actuator/health")
            .exchange()
            .expectBody(String.class)
            .returnResult()
            .getResponseBody();
    assertThat(health).contains("\"status\"").doesNotContain("details");
  }

  @Test
  void aRevokedTokenIsRefusedFromTheNextRequestAndTheStreamItHoldsOpenIsClosed() {
    String owner = devToken(web, StubServices.OWNER);
    AtomicBoolean ended = new AtomicBoolean();
    List<ServerSentEvent<String>> seen = new CopyOnWriteArrayList<>();
    Disposable stream =
        WebClient.create("http://127.0.0.1:" + port)
            .get()
            .uri("/api/v1/teams/{team}/events", StubServices.TEAM)
            .header("Authorization", "Bearer " + owner)
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
            .doOnNext(seen::add)
            .doOnTerminate(() -> ended.set(true))
            .subscribe(event -> {}, error -> {});
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> !seen.isEmpty());
      assertThat(ended).isFalse();

      revoked.revoke(EdgeTokens.tokenId(owner), Instant.now().plus(Duration.ofHours(1)));

      await().atMost(Duration.ofSeconds(30)).untilTrue(ended);
      web.get()
          .uri("/api/v1/teams")
          .header("Authorization", "Bearer " + owner)
          .exchange()
          .expectStatus()
          .isUnauthorized()
          .expectBody()
          .jsonPath("$.code")
          .isEqualTo("token-revoked");
    } finally {
      stream.dispose();
    }
  }

  @Test
  void anOwnerHoldsAtMostSixteenEventStreamsWhicheverOfItsTokensOpenedThem() {
    // Two tokens of one owner: one principal, one set of slots.
    List<String> tokens =
        List.of(devToken(web, StubServices.OWNER), devToken(web, StubServices.OWNER));
    double before = openStreams();
    List<Disposable> streams = new ArrayList<>();
    try {
      List<AtomicBoolean> started = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        AtomicBoolean first = new AtomicBoolean();
        started.add(first);
        streams.add(openStream(tokens.get(i % 2), first));
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> started.stream().allMatch(AtomicBoolean::get));
      await().atMost(Duration.ofSeconds(30)).until(() -> openStreams() == before + 16);

      for (String token : tokens) {
        web.get()
            .uri("/api/v1/teams/{team}/events", StubServices.TEAM)
            .header("Authorization", "Bearer " + token)
            .accept(MediaType.TEXT_EVENT_STREAM)
            .exchange()
            .expectStatus()
            .isEqualTo(429)
            .expectHeader()
            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .expectBody()
            .jsonPath("$.code")
            .isEqualTo("too-many-streams")
            .jsonPath("$.limit")
            .isEqualTo(16);
      }

      // Closing one frees its slot for a stream of either token.
      streams.remove(0).dispose();
      await().atMost(Duration.ofSeconds(30)).until(() -> openStreams() == before + 15);
      AtomicBoolean another = new AtomicBoolean();
      streams.add(openStream(tokens.get(1), another));
      await().atMost(Duration.ofSeconds(30)).untilTrue(another);
    } finally {
      streams.forEach(Disposable::dispose);
      // The owner's slots are free again before another test of this class opens a stream.
      await().atMost(Duration.ofSeconds(30)).until(() -> openStreams() <= before);
    }
  }

  @Test
  void a2aStreamsHoldTheSameSlotsAsEventStreams() {
    String owner = devToken(web, StubServices.OWNER);
    double before = openStreams();
    List<Disposable> streams = new ArrayList<>();
    try {
      List<AtomicBoolean> started = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        AtomicBoolean first = new AtomicBoolean();
        started.add(first);
        streams.add(openA2aStream(owner, first));
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> started.stream().allMatch(AtomicBoolean::get));
      await().atMost(Duration.ofSeconds(30)).until(() -> openStreams() == before + 16);

      // Neither another A2A stream nor an event stream of the same owner is opened.
      a2a(owner, subscribe(StubServices.JOB))
          .expectStatus()
          .isEqualTo(429)
          .expectBody()
          .jsonPath("$.code")
          .isEqualTo("too-many-streams");
      web.get()
          .uri("/api/v1/teams/{team}/events", StubServices.TEAM)
          .header("Authorization", "Bearer " + owner)
          .accept(MediaType.TEXT_EVENT_STREAM)
          .exchange()
          .expectStatus()
          .isEqualTo(429);

      streams.remove(0).dispose();
      await().atMost(Duration.ofSeconds(30)).until(() -> openStreams() == before + 15);
      AtomicBoolean another = new AtomicBoolean();
      streams.add(openStream(owner, another));
      await().atMost(Duration.ofSeconds(30)).untilTrue(another);
    } finally {
      streams.forEach(Disposable::dispose);
      await().atMost(Duration.ofSeconds(30)).until(() -> openStreams() <= before);
    }
  }

  @Test
  void aTeamsA2aTokenGetsOneAndTheSameNotFoundForEveryJobOutsideItsTeam() {
    String owner = devToken(web, StubServices.OWNER);
    String a2a = mint(web, "/api/v1/teams/" + StubServices.TEAM + "/a2a/tokens", owner);
    List<String> answers = new ArrayList<>();
    for (UUID job : List.of(StubServices.OTHER_TEAMS_JOB, UUID.randomUUID())) {
      for (String method : List.of("GetTask", "CancelTask")) {
        Map<?, ?> answer =
            a2a(a2a, rpc(method, Map.of("id", job.toString())))
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        assertThat(answer.containsKey("result")).as(method + " " + job).isFalse();
        Map<?, ?> error = (Map<?, ?>) answer.get("error");
        answers.add(
            error.get("code")
                + " "
                + ((String) error.get("message")).replace(job.toString(), "ID"));
      }
    }
    assertThat(answers).containsOnly("-32001 task ID not found");
    // The team's own job is found.
    a2a(a2a, rpc("GetTask", Map.of("id", StubServices.JOB.toString())))
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.result.id")
        .isEqualTo(StubServices.JOB.toString());
  }

  /**
   * For every member endpoint (each tool of the catalog, the tool list, MCP, the inbox, the
   * member's stream), a job-scoped token of an ended job, of a job that does not exist, of another
   * member's job, of the live job's earlier lease, and of no lease is refused with 401
   * token-job-ended and reaches no service, while the live job's token of its current lease is let
   * through.
   */
  @Test
  void aJobScopedTokenActsOnlyWhileItsJobIsLiveOnEveryMemberEndpoint() {
    List<String[]> endpoints = new ArrayList<>();
    for (ToolCatalog.Tool tool : catalog.all()) {
      endpoints.add(
          new String[] {
            tool.method(),
            tool.path()
                .replace("{team_id}", StubServices.TEAM.toString())
                .replaceAll("\\{[a-z_]+\\}", "1")
          });
    }
    String t = "/api/v1/teams/" + StubServices.TEAM;
    endpoints.add(new String[] {"POST", t + "/inbox/ack"});
    endpoints.add(new String[] {"GET", "/api/v1/tools"});
    endpoints.add(new String[] {"POST", "/api/v1/mcp"});
    endpoints.add(new String[] {"GET", t + "/members/" + StubServices.MEMBER + "/events"});

    Map<String, String> refused =
        Map.of(
            "ended", jobToken(StubServices.MEMBER, StubServices.ENDED_JOB, StubServices.LEASE),
            "missing", jobToken(StubServices.MEMBER, UUID.randomUUID(), 1),
            "another member's", jobToken("someone-else", StubServices.JOB, StubServices.LEASE),
            "an earlier lease's",
                jobToken(StubServices.MEMBER, StubServices.JOB, StubServices.LEASE - 1),
            "no lease's", jobToken(StubServices.MEMBER, StubServices.JOB, null));
    for (String[] endpoint : endpoints) {
      for (Map.Entry<String, String> token : refused.entrySet()) {
        services.clear();
        String what = token.getKey() + " job: " + endpoint[0] + " " + endpoint[1];
        memberCall(endpoint, token.getValue())
            .expectStatus()
            .isUnauthorized()
            .expectBody()
            .jsonPath("$.code")
            .isEqualTo("token-job-ended");
        assertThat(services.hits())
            .as(what)
            .allSatisfy(hit -> assertThat(hit.path()).contains("/liveness"));
      }
    }
    String live = jobToken(StubServices.MEMBER, StubServices.JOB, StubServices.LEASE);
    for (String[] endpoint : endpoints) {
      // Streams and the long poll are let through too; they stay open, so they are not waited for.
      if (endpoint[1].endsWith("/events") || endpoint[1].endsWith("/wait")) {
        continue;
      }
      memberCall(endpoint, live)
          .expectStatus()
          .value(
              status -> assertThat(status).as(endpoint[0] + " " + endpoint[1]).isNotEqualTo(401));
    }
  }

  private WebTestClient.ResponseSpec memberCall(String[] endpoint, String token) {
    var request =
        web.method(org.springframework.http.HttpMethod.valueOf(endpoint[0]))
            .uri(endpoint[1])
            .header("Authorization", "Bearer " + token);
    if (endpoint[0].equals("GET")) {
      return request.exchange();
    }
    Map<String, ?> body =
        endpoint[1].equals("/api/v1/mcp")
            ? Map.of("jsonrpc", "2.0", "id", 1, "method", "tools/list")
            : Map.of("text", "x");
    return request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
  }

  /** A job-scoped member token as the scheduler signs it with its dispatch key. */
  private static String jobToken(String member, UUID job, @Nullable Integer lease) {
    return io.agentteams.platform.identity.CallerTokens.signing(
            io.agentteams.platform.identity.TokenKeys.internalSigning(
                TestIdentity.dispatchSigningKeys(), "test keys"),
            io.agentteams.platform.identity.CallerTokens.JOB_MEMBER_TYPE,
            "agent-teams-scheduler",
            "agent-teams-api",
            java.time.Clock.systemUTC())
        .issue(
            new Caller.Member(StubServices.OWNER, StubServices.TEAM, member, job, lease),
            Duration.ofMinutes(5));
  }

  private WebTestClient.ResponseSpec a2a(String token, String body) {
    return web.post()
        .uri("/api/v1/teams/{team}/a2a", StubServices.TEAM)
        .header("Authorization", "Bearer " + token)
        .header("A2A-Version", "1.0")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(body)
        .exchange();
  }

  private static String subscribe(UUID job) {
    return rpc("SubscribeToTask", Map.of("id", job.toString()));
  }

  private static String rpc(String method, Map<String, ?> params) {
    return tools.jackson.databind.json.JsonMapper.builder()
        .build()
        .writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", method, "params", params));
  }

  private Disposable openA2aStream(String token, AtomicBoolean started) {
    return WebClient.create("http://127.0.0.1:" + port)
        .post()
        .uri("/api/v1/teams/{team}/a2a", StubServices.TEAM)
        .header("Authorization", "Bearer " + token)
        .header("A2A-Version", "1.0")
        .contentType(MediaType.APPLICATION_JSON)
        .accept(MediaType.TEXT_EVENT_STREAM)
        .bodyValue(subscribe(StubServices.JOB))
        .retrieve()
        .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
        .subscribe(event -> started.set(true), error -> {});
  }

  private Disposable openStream(String token, AtomicBoolean started) {
    return WebClient.create("http://127.0.0.1:" + port)
        .get()
        .uri("/api/v1/teams/{team}/events", StubServices.TEAM)
        .header("Authorization", "Bearer " + token)
        .accept(MediaType.TEXT_EVENT_STREAM)
        .retrieve()
        .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
        .subscribe(event -> started.set(true), error -> {});
  }

  private double openStreams() {
    return meters.get(StreamSlots.OPEN).gauge().value();
  }

  @BeforeEach
  void clear() {
    services.clear();
  }

  @Test
  void everyAnswerCarriesSecurityHeadersTokensAreNotStoredAndCorsIsOff() {
    web.get()
        .uri("/api/v1/teams")
        .exchange()
        .expectStatus()
        .isUnauthorized()
        .expectHeader()
        .valueEquals("X-Content-Type-Options", "nosniff")
        .expectHeader()
        .valueEquals("Content-Security-Policy", SecurityHeadersFilter.API_POLICY)
        .expectHeader()
        .valueEquals("Referrer-Policy", "no-referrer")
        .expectHeader()
        .doesNotExist("Strict-Transport-Security");
    web.post()
        .uri("/dev/tokens")
        .bodyValue(java.util.Map.of("owner_id", "headers"))
        .exchange()
        .expectStatus()
        .isOk()
        .expectHeader()
        .valueEquals("Cache-Control", "no-store")
        .expectHeader()
        .valueEquals("X-Content-Type-Options", "nosniff");
    // No allowed origins are configured: a browser on another origin gets no CORS grant.
    web.options()
        .uri("/api/v1/teams")
        .header("Origin", "https://elsewhere.example")
        .header("Access-Control-Request-Method", "GET")
        .exchange()
        .expectHeader()
        .doesNotExist("Access-Control-Allow-Origin");
  }

  @Test
  void routesEveryPublicPathFamilyToTheServiceThatOwnsItWithAnInternalToken() {
    String token = devToken(web, StubServices.OWNER);
    UUID team = StubServices.TEAM;
    Map<String, String> expected =
        Map.ofEntries(
            Map.entry("/api/v1/agents", "team"),
            Map.entry("/api/v1/agents/agent-1", "team"),
            Map.entry("/api/v1/teams", "team"),
            Map.entry("/api/v1/teams/" + team, "team"),
            Map.entry("/api/v1/teams/" + team + "/state", "team"),
            Map.entry("/api/v1/teams/" + team + "/state/e1", "team"),
            Map.entry("/api/v1/teams/" + team + "/messages", "mailbox"),
            Map.entry("/api/v1/teams/" + team + "/inbox", "mailbox"),
            Map.entry("/api/v1/teams/" + team + "/history", "mailbox"),
            Map.entry("/api/v1/teams/" + team + "/results/j1", "mailbox"),
            Map.entry("/api/v1/teams/" + team + "/tasks/7/claim", "task-board"),
            Map.entry("/api/v1/teams/" + team + "/plans/p1/approve", "task-board"),
            Map.entry("/api/v1/teams/" + team + "/requests", "scheduler"),
            Map.entry("/api/v1/teams/" + team + "/activity", "scheduler"),
            Map.entry("/api/v1/jobs/j1/answer", "scheduler"),
            Map.entry("/api/v1/agents/agent-1/jobs/stream", "scheduler"));
    Map<String, String> received = new java.util.HashMap<>();
    expected.forEach(
        (path, service) -> {
          services.clear();
          web.get()
              .uri(path)
              .header("Authorization", "Bearer " + token)
              .exchange()
              .expectStatus()
              .isOk();
          assertThat(services.hits()).as(path).hasSize(1);
          StubServices.Hit hit = services.hits().get(0);
          assertThat(hit.service()).as(path).isEqualTo(service);
          assertThat(hit.caller()).as(path).isEqualTo(new Caller.Owner(StubServices.OWNER));
          received.put(service, hit.token());
        });
    // Each token was signed for the one service it was sent to: every other service refuses it.
    assertThat(received.keySet())
        .containsExactlyInAnyOrderElementsOf(StubServices.AUDIENCES.keySet());
    received.forEach(
        (sentTo, internal) ->
            StubServices.AUDIENCES.forEach(
                (service, audience) -> {
                  var verifier = TestIdentity.internalVerifier(audience);
                  if (service.equals(sentTo)) {
                    assertThat(verifier.verify(internal))
                        .isEqualTo(new Caller.Owner(StubServices.OWNER));
                  } else {
                    assertThatThrownBy(() -> verifier.verify(internal))
                        .as("a token for %s replayed to %s", sentTo, service)
                        .hasMessageContaining("wrong audience");
                  }
                }));
  }

  @Test
  void anAgentsWorkerPresenceIsAnsweredForItsOwnerOnlyAndIsNotFoundForAnyoneElse() {
    String path = "/api/v1/agents/" + StubServices.AGENT + "/worker";
    web.get()
        .uri(path)
        .header("Authorization", "Bearer " + devToken(web, StubServices.OWNER))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.service")
        .isEqualTo("scheduler");
    assertThat(services.hits())
        .extracting(StubServices.Hit::service, StubServices.Hit::path)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("team", "/api/v1/agents/" + StubServices.AGENT),
            org.assertj.core.groups.Tuple.tuple("scheduler", path));

    // Another owner: the same not-found as for an agent that does not exist, and the scheduler is
    // never asked.
    services.clear();
    String bob = devToken(web, "bob");
    for (String agent : List.of(StubServices.AGENT, "ghost-agent")) {
      web.get()
          .uri("/api/v1/agents/{agent}/worker", agent)
          .header("Authorization", "Bearer " + bob)
          .exchange()
          .expectStatus()
          .isNotFound()
          .expectBody()
          .jsonPath("$.code")
          .isEqualTo("agent-not-found");
    }
    assertThat(services.hits()).extracting(StubServices.Hit::service).containsOnly("team");
  }

  @Test
  void refusesMissingForgedAndInternalTokensWithoutReachingAService() {
    web.get().uri("/api/v1/teams").exchange().expectStatus().isUnauthorized();
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer not-a-token")
        .exchange()
        .expectStatus()
        .isUnauthorized()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON);
    // An internal token (which only the gateway can sign) is not a public token either.
    String internal =
        TestIdentity.internalTokens()
            .issue(new Caller.Owner("mallory"), java.time.Duration.ofMinutes(1));
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer " + internal)
        .exchange()
        .expectStatus()
        .isUnauthorized();
    assertThat(services.hits()).isEmpty();
  }

  @Test
  void acceptsOwnersFromTheConfiguredIdentityProviderAndRefusesForgedOrExpiredTokens() {
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer " + idp.token("carol", "agent-teams", 300))
        .exchange()
        .expectStatus()
        .isOk();
    assertThat(services.hits())
        .extracting(StubServices.Hit::caller)
        .containsExactly(new Caller.Owner("carol"));
    for (String refused :
        List.of(
            TestIdentityProvider.forged("carol", "agent-teams"),
            idp.token("carol", "agent-teams", -120),
            idp.token("carol", "another-audience", 300))) {
      web.get()
          .uri("/api/v1/teams")
          .header("Authorization", "Bearer " + refused)
          .exchange()
          .expectStatus()
          .isUnauthorized();
    }
    assertThat(services.hits()).hasSize(1);
  }

  @Test
  void aWorkerRefreshesItsShortLivedTokenForItsOwnAgentOnly() {
    String owner = devToken(web, StubServices.OWNER);
    String worker = mint(web, "/api/v1/agents/" + StubServices.AGENT + "/tokens", owner);
    String refresh = "/api/v1/agents/" + StubServices.AGENT + "/tokens/refresh";

    String fresh = mint(web, refresh, worker);
    assertThat(fresh).isNotEqualTo(worker);
    services.clear();
    web.get()
        .uri("/api/v1/agents/" + StubServices.AGENT + "/jobs/stream")
        .header("Authorization", "Bearer " + fresh)
        .exchange()
        .expectStatus()
        .isOk();
    assertThat(services.hits())
        .extracting(StubServices.Hit::caller)
        .containsExactly(new Caller.Worker(StubServices.OWNER, StubServices.AGENT));

    web.post()
        .uri("/api/v1/agents/another-agent/tokens/refresh")
        .header("Authorization", "Bearer " + worker)
        .exchange()
        .expectStatus()
        .isNotFound();
    web.post()
        .uri(refresh)
        .header("Authorization", "Bearer " + owner)
        .exchange()
        .expectStatus()
        .isForbidden();
    web.post().uri(refresh).exchange().expectStatus().isUnauthorized();
  }

  @Test
  void ownersMintMemberAndWorkerTokensThatActAsExactlyThatMemberOrWorker() {
    String owner = devToken(web, StubServices.OWNER);
    String member = memberToken(web, owner);
    String worker = mint(web, "/api/v1/agents/" + StubServices.AGENT + "/tokens", owner);

    services.clear();
    web.get()
        .uri("/api/v1/teams/" + StubServices.TEAM + "/inbox")
        .header("Authorization", "Bearer " + member)
        .exchange()
        .expectStatus()
        .isOk();
    web.get()
        .uri("/api/v1/agents/" + StubServices.AGENT + "/jobs/stream")
        .header("Authorization", "Bearer " + worker)
        .exchange()
        .expectStatus()
        .isOk();
    assertThat(services.hits())
        .extracting(StubServices.Hit::caller)
        .containsExactly(
            new Caller.Member(StubServices.OWNER, StubServices.TEAM, StubServices.MEMBER, null),
            new Caller.Worker(StubServices.OWNER, StubServices.AGENT));

    // Unknown members, other owners' teams and agents: not found, no token.
    web.post()
        .uri("/api/v1/teams/" + StubServices.TEAM + "/members/nobody/tokens")
        .header("Authorization", "Bearer " + owner)
        .exchange()
        .expectStatus()
        .isNotFound();
    String mallory = devToken(web, "mallory");
    web.post()
        .uri("/api/v1/teams/" + StubServices.TEAM + "/members/" + StubServices.MEMBER + "/tokens")
        .header("Authorization", "Bearer " + mallory)
        .exchange()
        .expectStatus()
        .isNotFound();
    web.post()
        .uri("/api/v1/agents/" + StubServices.AGENT + "/tokens")
        .header("Authorization", "Bearer " + mallory)
        .exchange()
        .expectStatus()
        .isNotFound();
    // A member token cannot mint tokens.
    web.post()
        .uri("/api/v1/agents/" + StubServices.AGENT + "/tokens")
        .header("Authorization", "Bearer " + member)
        .exchange()
        .expectStatus()
        .isForbidden();
  }

  @Test
  void refusesBodiesOverTheLimitWith413BeforeTheyReachAService() {
    String token = devToken(web, "bodies");
    services.clear();
    web.post()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer " + token)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue("{\"name\":\"" + "x".repeat(3000) + "\"}")
        .exchange()
        .expectStatus()
        .isEqualTo(413)
        .expectBody()
        .jsonPath("$.limit")
        .isEqualTo("agentteams.gateway.limits.max-body-bytes");
    web.post()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer " + token)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue("{\"name\":\"small\"}")
        .exchange()
        .expectStatus()
        .isOk();
    assertThat(services.hits()).hasSize(1);
  }

  @Test
  void answersReadsWithAnEtagAnd304WhenTheClientAlreadyHasThatRepresentation() {
    String token = devToken(web, StubServices.OWNER);
    String etag =
        web.get()
            .uri("/api/v1/teams/" + StubServices.TEAM)
            .header("Authorization", "Bearer " + token)
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .exists("ETag")
            .returnResult(String.class)
            .getResponseHeaders()
            .getETag();
    web.get()
        .uri("/api/v1/teams/" + StubServices.TEAM)
        .header("Authorization", "Bearer " + token)
        .header("If-None-Match", etag)
        .exchange()
        .expectStatus()
        .isNotModified()
        .expectBody()
        .isEmpty();
    web.get()
        .uri("/api/v1/teams/" + StubServices.TEAM)
        .header("Authorization", "Bearer " + token)
        .header("If-None-Match", "W/\"something-else\"")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.id")
        .isEqualTo(StubServices.TEAM.toString());
  }

  /**
   * A proxied call is measured by its route, the gateway's own calls to the services by their URI,
   * and the gateway's own endpoints as server requests: Prometheus exports a name only with one set
   * of labels, so each needs a name of its own or one of them is dropped.
   */
  @Test
  void theRoutesCallsAndTheGatewaysOwnCallsAreEachExportedUnderANameOfTheirOwn() {
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer " + devToken(web, StubServices.OWNER))
        .exchange()
        .expectStatus()
        .isOk();
    // The merged API document: the gateway's own endpoint, which calls every service itself.
    web.get().uri("/v3/api-docs").exchange().expectStatus().isOk();

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              String exposition = scrape();
              assertThat(series(exposition, "agentteams_gateway_proxied_requests_seconds_count"))
                  .as("the route's proxied call")
                  .anySatisfy(
                      labels ->
                          assertThat(labels)
                              .containsEntry("spring_cloud_gateway_route_id", "team")
                              .containsEntry("http_method", "GET")
                              .containsEntry("http_status_code", "200"));
              List<Map<String, String>> ownCalls =
                  series(exposition, "http_client_requests_seconds_count");
              assertThat(ownCalls)
                  .as("the gateway's own call to a service")
                  .anySatisfy(
                      labels ->
                          assertThat(labels)
                              .containsEntry("uri", "/v3/api-docs")
                              .containsEntry("status", "200"));
              assertThat(ownCalls)
                  .allSatisfy(
                      labels ->
                          assertThat(labels).doesNotContainKey("spring_cloud_gateway_route_id"));
              assertThat(series(exposition, "http_server_requests_seconds_count"))
                  .as("the gateway's own endpoint")
                  .anySatisfy(labels -> assertThat(labels).containsEntry("uri", "/v3/api-docs"));
            });
  }

  private String scrape() {
    return WebTestClient.bindToServer()
        .baseUrl("http://127.0.0.1:" + managementPort)
        .build()
        .get()
        .uri("/actuator/prometheus")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(String.class)
        .returnResult()
        .getResponseBody();
  }

  /** The labels of each series of {@code name} in a Prometheus text exposition. */
  private static List<Map<String, String>> series(String exposition, String name) {
    List<Map<String, String>> found = new ArrayList<>();
    Pattern label = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    for (String line : exposition.split("\n")) {
      if (line.startsWith(name + "{")) {
        Map<String, String> labels = new java.util.HashMap<>();
        Matcher matcher = label.matcher(line.substring(name.length() + 1, line.lastIndexOf('}')));
        while (matcher.find()) {
          labels.put(matcher.group(1), matcher.group(2));
        }
        found.add(labels);
      }
    }
    return found;
  }

  @Test
  void describesTheWholePublicApiInOneDocumentMergedFromTheServices() {
    web.get()
        .uri("/v3/api-docs")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.info.title")
        .isEqualTo("Agent Teams API")
        .jsonPath(
            "$.paths['/api/v1/team/things/{id}'].get.responses['200'].content['application/json'].schema['$ref']")
        .isEqualTo("#/components/schemas/TeamThing")
        .jsonPath(
            "$.paths['/api/v1/mailbox/things/{id}'].get.responses['404'].content['application/problem+json'].schema['$ref']")
        .isEqualTo("#/components/schemas/Problem")
        .jsonPath("$.paths['/api/v1/scheduler/things/{id}'].get.tags[0]")
        .isEqualTo("scheduler-service")
        .jsonPath("$.components.schemas.TeamThing")
        .exists()
        .jsonPath("$.components.schemas.TaskBoardThing")
        .exists()
        .jsonPath("$.paths['/api/internal/v1/mailbox/recent']")
        .doesNotExist()
        .jsonPath("$.paths['/actuator/health']")
        .doesNotExist()
        // The gateway's own operations, with their errors.
        .jsonPath("$.paths['/api/v1/agents/{agentId}/tokens'].post.responses['401']")
        .exists()
        .jsonPath("$.paths['/api/v1/teams/{teamId}/events'].get")
        .exists()
        .jsonPath("$['x-unavailable']")
        .doesNotExist();
    web.get().uri("/swagger-ui/index.html").exchange().expectStatus().isOk();
  }

  @Test
  void mcpServesTheMemberToolsAndCallsThemAsTheCallingMember() {
    String owner = devToken(web, StubServices.OWNER);
    String member = memberToken(web, owner);

    Map<?, ?> initialized =
        mcp(
            web,
            member,
            Map.of(
                "jsonrpc",
                "2.0",
                "id",
                1,
                "method",
                "initialize",
                "params",
                Map.of(
                    "protocolVersion",
                    "2025-06-18",
                    "capabilities",
                    Map.of(),
                    "clientInfo",
                    Map.of("name", "test", "version", "1"))));
    assertThat(((Map<?, ?>) initialized.get("result")).get("protocolVersion"))
        .isEqualTo("2025-06-18");
    web.post()
        .uri("/api/v1/mcp")
        .header("Authorization", "Bearer " + member)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"))
        .exchange()
        .expectStatus()
        .isAccepted();

    Map<?, ?> listed = mcp(web, member, Map.of("jsonrpc", "2.0", "id", 2, "method", "tools/list"));
    List<?> tools = (List<?>) ((Map<?, ?>) listed.get("result")).get("tools");
    assertThat(tools).hasSize(20);
    assertThat(tools)
        .allSatisfy(tool -> assertThat(((Map<?, ?>) tool).get("inputSchema")).isNotNull());

    services.clear();
    Map<?, ?> called =
        mcp(
            web,
            member,
            toolCall(
                3,
                "read_team_state",
                Map.of("team_id", StubServices.TEAM.toString(), "kind", "finding")));
    Map<?, ?> result = (Map<?, ?>) called.get("result");
    assertThat(result.get("isError")).isEqualTo(false);
    assertThat(result.get("structuredContent")).isEqualTo(Map.of("service", "team"));
    assertThat(services.hits())
        .singleElement()
        .satisfies(
            hit -> {
              assertThat(hit.path())
                  .isEqualTo("/api/v1/teams/" + StubServices.TEAM + "/state?kind=finding");
              assertThat(hit.caller())
                  .isEqualTo(
                      new Caller.Member(
                          StubServices.OWNER, StubServices.TEAM, StubServices.MEMBER, null));
            });

    Map<?, ?> unknown = mcp(web, member, toolCall(4, "drop_database", Map.of()));
    assertThat(((Map<?, ?>) unknown.get("error")).get("code")).isEqualTo(-32602);
    Map<?, ?> missing =
        mcp(
            web,
            member,
            toolCall(5, "claim_task", Map.of("team_id", StubServices.TEAM.toString())));
    assertThat(((Map<?, ?>) missing.get("error")).get("message").toString()).contains("task_id");

    web.post()
        .uri("/api/v1/mcp")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(Map.of("jsonrpc", "2.0", "id", 6, "method", "tools/list"))
        .exchange()
        .expectStatus()
        .isUnauthorized();
  }
}
