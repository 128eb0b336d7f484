package io.agentteams.devstack.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.devstack.webhook.WebhookAgent.Push;
import io.agentteams.devstack.webhook.WebhookAgent.Reply;
import io.agentteams.platform.test.RealInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;

/**
 * A webhook agent that starts refusing our pushes (401) disconnects its team with the reason; the
 * refused job keeps its slot without being marked done, and new requests to the team stay queued
 * while another team's requests run. Once the agent accepts pushes again and the owner reconnects
 * the team, the refused job is reconciled under its original message id and the queued one is
 * pushed; each ends exactly once.
 */
@RealInfrastructure
class WebhookReconnectIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Test
  void aRefusingAgentDisconnectsItsTeamAndTheReconnectReconcilesWhatItHeld() throws Exception {
    Api api = new Api(SharedStack.get().url(Service.GATEWAY));
    String owner = api.ownerToken("rhea-reconnects");
    AtomicBoolean refusing = new AtomicBoolean(true);
    try (WebhookAgent gated =
            new WebhookAgent(
                (push, earlier) ->
                    refusing.get()
                        ? Reply.json(401, "{\"error\":\"unknown signing key\"}")
                        : Reply.json(
                            200,
                            "{\"type\":\"completed\",\"answer\":\"done: "
                                + push.input()
                                + (push.reconcile() ? " (from my record)" : "")
                                + "\"}"));
        WebhookAgent open =
            new WebhookAgent(
                (push, earlier) ->
                    Reply.json(200, "{\"type\":\"completed\",\"answer\":\"open answer\"}"))) {
      String gatedTeam = team(api, owner, "gated", gated);
      String openTeam = team(api, owner, "open", open);
      List<ServerSentEvent<String>> events = new CopyOnWriteArrayList<>();
      Disposable watching =
          api.stream("/api/v1/teams/" + gatedTeam + "/events", owner)
              .filter(event -> event.event() != null)
              .subscribe(events::add);
      try {
        String held = request(api, owner, gatedTeam, "first");

        JsonNode disconnected =
            await()
                .atMost(PATIENCE)
                .until(
                    () -> api.get("/api/v1/teams/" + gatedTeam, owner).ok(),
                    team -> team.get("status").asString().equals("disconnected"));
        assertThat(disconnected.get("status_reason").asString())
            .contains("'gated'")
            .contains("401");
        JsonNode heldJob = api.get("/api/v1/jobs/" + held, owner).ok();
        assertThat(heldJob.get("state").asString()).isEqualTo("unknown");
        assertThat(heldJob.get("result").isNull()).isTrue();

        // A request to the disconnected team queues; one to another team runs meanwhile, so an
        // admission pass has been and gone without dispatching the first.
        String queued = request(api, owner, gatedTeam, "second");
        String elsewhere = request(api, owner, openTeam, "elsewhere");
        assertThat(finished(api, owner, elsewhere).get("state").asString()).isEqualTo("completed");
        assertThat(api.get("/api/v1/jobs/" + queued, owner).ok().get("state").asString())
            .isEqualTo("queued");
        assertThat(gated.pushesOf(queued)).isEmpty();
        List<Push> beforeReconnect = gated.pushesOf(held);
        assertThat(beforeReconnect).isNotEmpty();

        refusing.set(false);
        Instant reconnectedAt = Instant.now();
        int status =
            api.post("/api/v1/teams/" + gatedTeam + "/reconnect", owner, Map.of()).status();
        assertThat(status).isIn(200, 202);
        await()
            .atMost(PATIENCE)
            .until(
                () -> api.get("/api/v1/teams/" + gatedTeam, owner).ok().get("status").asString(),
                "ready"::equals);

        JsonNode reconciled = finished(api, owner, held);
        assertThat(reconciled.get("state").asString()).isEqualTo("completed");
        assertThat(reconciled.get("result").get("answer").asString())
            .isEqualTo("done: first (from my record)");
        List<Push> heldPushes = gated.pushesOf(held);
        assertThat(heldPushes).extracting(Push::id).containsOnly(heldPushes.get(0).id());
        assertThat(heldPushes.get(heldPushes.size() - 1).reconcile()).isTrue();

        JsonNode dispatched = finished(api, owner, queued);
        assertThat(dispatched.get("result").get("answer").asString()).isEqualTo("done: second");
        assertThat(gated.pushesOf(queued))
            .allSatisfy(push -> assertThat(push.arrivedAt()).isAfter(reconnectedAt));
        assertThat(gated.pushes()).allSatisfy(push -> assertThat(push.refusal()).isEmpty());

        // Each job ended exactly once on the team's stream.
        await()
            .atMost(PATIENCE)
            .untilAsserted(
                () -> {
                  assertThat(endings(api, events, held)).containsExactly("completed");
                  assertThat(endings(api, events, queued)).containsExactly("completed");
                });
      } finally {
        watching.dispose();
      }
    }
  }

  private static String team(Api api, String owner, String agentId, WebhookAgent agent) {
    String secret =
        api.post(
                "/api/v1/agents",
                owner,
                Map.of(
                    "id",
                    agentId,
                    "name",
                    agentId,
                    "runtime",
                    Map.of("kind", "webhook", "endpoint", agent.url())))
            .ok()
            .get("webhook_secret")
            .asString();
    agent.verifyWith(List.of(secret));
    String teamId =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    agentId + " team",
                    "goal",
                    "Work through a webhook",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", agentId, "lead", true),
                        Map.of("name", "second", "agent_id", agentId))))
            .ok()
            .get("id")
            .asString();
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/teams/" + teamId, owner).ok().get("status").asString(),
            "ready"::equals);
    return teamId;
  }

  private static String request(Api api, String owner, String teamId, String text) {
    return api.post(
            "/api/v1/teams/" + teamId + "/requests",
            owner,
            Map.of("recipients", List.of("lead"), "text", text))
        .ok()
        .get("jobs")
        .get(0)
        .get("id")
        .asString();
  }

  private static JsonNode finished(Api api, String owner, String job) {
    return await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/jobs/" + job, owner).ok(),
            j -> List.of("completed", "failed", "cancelled").contains(j.get("state").asString()));
  }

  /** The finished states the stream announced for the job. */
  private static List<String> endings(Api api, List<ServerSentEvent<String>> events, String job) {
    return events.stream()
        .filter(event -> "JobStateChanged".equals(event.event()))
        .map(event -> api.json(event.data()).get("data"))
        .filter(data -> job.equals(text(data, "job_id", "jobId")))
        .map(data -> text(data, "state", "state"))
        .filter(
            state -> state != null && List.of("completed", "failed", "cancelled").contains(state))
        .toList();
  }

  private static @Nullable String text(JsonNode node, String name, String alternative) {
    JsonNode value = node.has(name) ? node.get(name) : node.get(alternative);
    return value == null ? null : value.asString();
  }
}
