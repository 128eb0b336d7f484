package io.agentteams.devstack.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.gateway.GatewayApplication;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;

/**
 * Revocation reaches every gateway replica: a second gateway runs beside the shared one on the same
 * services and Kafka. A token minted through one replica and revoked through it is refused by both
 * on the next request, and the streams it holds open on either are closed.
 */
@RealInfrastructure
class RevocationIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private static ConfigurableApplicationContext second;
  private static Api first;
  private static Api other;

  @BeforeAll
  static void start() {
    ServiceStack stack = SharedStack.get();
    Map<String, Object> properties = new LinkedHashMap<>(stack.keys().gatewaySettings());
    properties.put("server.port", 0);
    // Its actuator on a free loopback port of its own, not the shipped default's fixed one.
    properties.put("management.server.port", 0);
    properties.put("server.address", "127.0.0.1");
    properties.put("spring.main.banner-mode", "off");
    properties.put("logging.include-application-name", false);
    properties.put(
        "spring.kafka.bootstrap-servers", TestInfrastructure.shared().kafkaBootstrapServers());
    properties.put("agentteams.kafka.partitions", SharedStack.PARTITIONS);
    properties.put("agentteams.gateway.services.team", stack.url(Service.TEAM));
    properties.put("agentteams.gateway.services.mailbox", stack.url(Service.MAILBOX));
    properties.put("agentteams.gateway.services.task-board", stack.url(Service.TASK_BOARD));
    properties.put("agentteams.gateway.services.scheduler", stack.url(Service.SCHEDULER));
    List<String> args = new ArrayList<>();
    properties.forEach((key, value) -> args.add("--" + key + "=" + value));
    second = GatewayApplication.application().run(args.toArray(String[]::new));
    first = new Api(stack.url(Service.GATEWAY));
    other =
        new Api(
            "http://127.0.0.1:" + ((WebServerApplicationContext) second).getWebServer().getPort());
  }

  @AfterAll
  static void stop() {
    // Closed with the JVM, as the shared stack is: closing a web application early would dispose
    // the Netty resources every server of this JVM shares.
    ConfigurableApplicationContext started = second;
    Runtime.getRuntime().addShutdownHook(new Thread(started::close, "revocation-gateway-shutdown"));
  }

  @Test
  void aRevokedTokenIsRefusedByEveryReplicaAndItsOpenStreamsClose() {
    String owner = first.ownerToken("rita-revokes-" + UUID.randomUUID());
    String agent = "revoked-" + UUID.randomUUID().toString().substring(0, 8);
    first.post("/api/v1/agents", owner, Map.of("id", agent, "name", agent)).ok();
    String teamId = first.readyTeamOfOneAgent(owner, agent, "revocation team", "Be revoked");
    String worker = first.workerToken(owner, agent);
    String member = first.memberToken(owner, teamId, "lead");
    String kept = first.memberToken(owner, teamId, "second");

    // The worker's job stream (proxied to the scheduler) open on the other replica, the member's
    // event stream (served by the gateway) on this one.
    AtomicBoolean workerStreamEnded = new AtomicBoolean();
    AtomicBoolean memberStreamEnded = new AtomicBoolean();
    List<ServerSentEvent<String>> seen = new CopyOnWriteArrayList<>();
    List<ServerSentEvent<String>> memberSeen = new CopyOnWriteArrayList<>();
    Disposable workerStream =
        other.stream("/api/v1/agents/" + agent + "/jobs/stream", worker)
            .doOnNext(seen::add)
            .doOnTerminate(() -> workerStreamEnded.set(true))
            .subscribe(e -> {}, e -> {});
    Disposable memberStream =
        first.stream("/api/v1/teams/" + teamId + "/members/lead/events", member)
            .doOnNext(memberSeen::add)
            .doOnTerminate(() -> memberStreamEnded.set(true))
            .subscribe(e -> {}, e -> {});
    try {
      // Both streams are open: each greets its reader with a comment.
      await().atMost(PATIENCE).until(() -> !seen.isEmpty() && !memberSeen.isEmpty());
      assertThat(workerStreamEnded).isFalse();
      assertThat(memberStreamEnded).isFalse();
      assertThat(other.get("/api/v1/teams/" + teamId + "/state", member).status()).isEqualTo(200);

      JsonNode listed = first.get("/api/v1/tokens?agent_id=" + agent, owner).ok();
      assertThat(listed.get("tokens")).hasSize(1);
      String workerTokenId = listed.get("tokens").get(0).get("id").asString();
      assertThat(
              first
                  .call(HttpMethod.DELETE, "/api/v1/tokens/" + workerTokenId, owner, null)
                  .status())
          .isEqualTo(204);
      assertThat(
              other
                  .call(
                      HttpMethod.DELETE,
                      "/api/v1/tokens?team_id=" + teamId + "&member=lead",
                      owner,
                      null)
                  .ok()
                  .get("revoked")
                  .asInt())
          .isEqualTo(1);

      await().atMost(PATIENCE).untilTrue(workerStreamEnded);
      await().atMost(PATIENCE).untilTrue(memberStreamEnded);
      for (Api replica : List.of(first, other)) {
        await()
            .atMost(PATIENCE)
            .untilAsserted(
                () -> {
                  Api.Response refused = replica.get("/api/v1/teams/" + teamId + "/state", member);
                  assertThat(refused.status()).isEqualTo(401);
                  assertThat(refused.raw()).contains("token-revoked");
                });
        assertThat(
                replica
                    .post("/api/v1/agents/" + agent + "/tokens/refresh", worker, Map.of())
                    .status())
            .isEqualTo(401);
        // The member's other token, not revoked, still works.
        assertThat(replica.get("/api/v1/teams/" + teamId + "/state", kept).status()).isEqualTo(200);
      }
    } finally {
      workerStream.dispose();
      memberStream.dispose();
    }
  }

  @Test
  void deletingAnAgentRevokesItsWorkerTokens() {
    String owner = first.ownerToken("dora-deletes-" + UUID.randomUUID());
    String agent = "gone-" + UUID.randomUUID().toString().substring(0, 8);
    first.post("/api/v1/agents", owner, Map.of("id", agent, "name", agent)).ok();
    String worker = first.workerToken(owner, agent);
    assertThat(other.post("/api/v1/agents/" + agent + "/tokens/refresh", worker, Map.of()).status())
        .isEqualTo(201);

    assertThat(first.call(HttpMethod.DELETE, "/api/v1/agents/" + agent, owner, null).status())
        .isEqualTo(204);

    String report = "/api/v1/jobs/" + UUID.randomUUID() + "/events";
    Map<String, String> heartbeat = Map.of("type", "heartbeat", "lease_token", "none");
    await()
        .atMost(PATIENCE)
        // Once on CI the gateway closed a kept-alive connection before answering this call; the
        // refusal is what is checked, so a call lost with its connection is made again.
        .ignoreExceptionsInstanceOf(WebClientRequestException.class)
        .untilAsserted(
            () -> {
              Api.Response refused = other.post(report, worker, heartbeat);
              assertThat(refused.status()).isEqualTo(401);
              assertThat(refused.raw()).contains("token-revoked");
            });
  }
}
