package io.agentteams.devstack.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.devstack.webhook.WebhookAgent.Push;
import io.agentteams.devstack.webhook.WebhookAgent.Reply;
import io.agentteams.platform.test.RealInfrastructure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * The webhook runtime against a real webhook agent on loopback (the shared stack allows 127.0.0.1
 * explicitly; every other private address stays refused). Each push is verified at arrival by an
 * independent Standard Webhooks verifier written from the specification. The agent answers in the
 * response or later under the lease; a 5xx is retried under the same message id; a push that gets
 * no answer leaves the job unknown until the agent is asked again under the same id.
 */
@RealInfrastructure
class WebhookRuntimeIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private static Api api;
  private static WebhookAgent agent;
  private static String owner;
  private static String teamId;
  private static String secret;
  private static final CountDownLatch sawUnknown = new CountDownLatch(1);
  private static final CountDownLatch releaseHeld = new CountDownLatch(1);

  @BeforeAll
  static void registerTheAgentAndItsTeam() throws Exception {
    api = new Api(SharedStack.get().url(Service.GATEWAY));
    owner = api.ownerToken("wanda-webhooks");
    agent = new WebhookAgent(WebhookRuntimeIntegrationTest::answer);
    JsonNode registered =
        api.post(
                "/api/v1/agents",
                owner,
                Map.of(
                    "id",
                    "hook",
                    "name",
                    "Hook",
                    "runtime",
                    Map.of("kind", "webhook", "endpoint", agent.url())))
            .ok();
    secret = registered.get("webhook_secret").asString();
    agent.verifyWith(List.of(secret));
    teamId =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    "Hooked",
                    "goal",
                    "Answer through a webhook",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", "hook", "lead", true),
                        Map.of("name", "second", "agent_id", "hook"))))
            .ok()
            .get("id")
            .asString();
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/teams/" + teamId, owner).ok().get("status").asString(),
            "ready"::equals);
  }

  @AfterAll
  static void stopTheAgent() {
    releaseHeld.countDown();
    if (agent != null) {
      agent.close();
    }
  }

  private static String usage(JsonNode job) {
    JsonNode usage = job.get("usage");
    return usage.get("model").asString()
        + " "
        + usage.get("input_tokens").asLong()
        + "/"
        + usage.get("output_tokens").asLong()
        + " "
        + usage.get("tokens").asLong();
  }

  /** The agent: what it does is written in the request's text. */
  private static Reply answer(Push push, int earlier) throws Exception {
    String input = push.input();
    if (input.startsWith("sync")) {
      return Reply.json(
          200,
          "{\"type\":\"completed\",\"answer\":\"done: "
              + input
              + "\",\"usage\":{\"input_tokens\":12,\"output_tokens\":3,\"model\":\"hook-sync-1\"}}");
    }
    if (input.startsWith("async")) {
      // Accepted now; the report follows under the lease, as a pull worker's would.
      Thread reporter =
          new Thread(
              () -> {
                String worker = api.workerToken(owner, "hook");
                String events = "/api/v1/jobs/" + push.jobId() + "/events";
                api.post(
                        events, worker, Map.of("type", "started", "lease_token", push.leaseToken()))
                    .ok();
                api.post(
                        events,
                        worker,
                        Map.of(
                            "type",
                            "completed",
                            "lease_token",
                            push.leaseToken(),
                            "answer",
                            "reported later",
                            "usage",
                            Map.of(
                                "input_tokens", 20, "output_tokens", 5, "model", "hook-async-1")))
                    .ok();
              });
      reporter.start();
      return Reply.json(202, "");
    }
    if (input.startsWith("flaky")) {
      return earlier == 0
          ? new Reply(503, Map.of("Retry-After", "0"), "")
          : Reply.json(200, "{\"type\":\"completed\",\"answer\":\"second time lucky\"}");
    }
    if (input.startsWith("busy")) {
      // Always busy: the scheduler retries a second later, until the job is interrupted.
      return new Reply(503, Map.of("Retry-After", "1"), "");
    }
    if (input.startsWith("slow")) {
      if (!push.reconcile()) {
        // Holds the push past the scheduler's response time-out: the outcome is unknown.
        releaseHeld.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        return Reply.json(200, "{\"type\":\"completed\",\"answer\":\"too late\"}");
      }
      sawUnknown.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      return Reply.json(200, "{\"type\":\"completed\",\"answer\":\"reconciled from my record\"}");
    }
    if (input.startsWith("ask")) {
      JsonNode resume = push.data().get("resume");
      if (resume == null || resume.isNull()) {
        return Reply.json(
            200,
            "{\"type\":\"input_required\",\"question\":{\"kind\":\"clarification\","
                + "\"text\":\"which region?\"}}");
      }
      return Reply.json(
          200,
          "{\"type\":\"completed\",\"answer\":\"report for "
              + resume.get("answer").asString()
              + "\"}");
    }
    return Reply.json(400, "");
  }

  @Test
  void signedPushesAreAnsweredInTheResponseOrLaterUnderTheLease() {
    String sync = request("sync: summarise", "sync-1");
    String async = request("async: research", "async-1");

    assertThat(finished(sync).get("result").get("answer").asString())
        .isEqualTo("done: sync: summarise");
    assertThat(finished(async).get("result").get("answer").asString()).isEqualTo("reported later");
    // The usage in the answer and in the callback is kept with its split and model.
    assertThat(usage(finished(sync))).isEqualTo("hook-sync-1 12/3 15");
    assertThat(usage(finished(async))).isEqualTo("hook-async-1 20/5 25");
    for (String job : List.of(sync, async)) {
      List<Push> pushes = agent.pushesOf(job);
      assertThat(pushes).hasSize(1);
      Push push = pushes.get(0);
      assertThat(push.refusal()).isEmpty();
      assertThat(push.json().get("type").asString()).isEqualTo("job.offered");
      assertThat(push.data().get("member").asString()).isEqualTo("lead");
      assertThat(push.data().get("conversation_id").asString()).isNotBlank();
      assertThat(push.data().get("reconcile").asBoolean()).isFalse();
    }

    // The verifier refuses a tampered body, a tampered id, another secret and a late replay.
    Push captured = agent.pushesOf(sync).get(0);
    StandardWebhooksVerifier verifier = new StandardWebhooksVerifier(List.of(secret));
    Instant arrived = captured.arrivedAt();
    byte[] tampered =
        new String(captured.body(), StandardCharsets.UTF_8)
            .replace("sync: summarise", "sync: exfiltrate")
            .getBytes(StandardCharsets.UTF_8);
    assertThat(
            verifier.refusal(
                captured.id(),
                captured.timestamp(),
                captured.signature(),
                captured.body(),
                arrived))
        .isEmpty();
    assertThat(
            verifier.refusal(
                captured.id(), captured.timestamp(), captured.signature(), tampered, arrived))
        .contains("no signature matches");
    assertThat(
            verifier.refusal(
                captured.id() + "x",
                captured.timestamp(),
                captured.signature(),
                captured.body(),
                arrived))
        .contains("no signature matches");
    assertThat(
            new StandardWebhooksVerifier(List.of("whsec_" + "A".repeat(43) + "="))
                .refusal(
                    captured.id(),
                    captured.timestamp(),
                    captured.signature(),
                    captured.body(),
                    arrived))
        .contains("no signature matches");
    assertThat(
            verifier.refusal(
                captured.id(),
                captured.timestamp(),
                captured.signature(),
                captured.body(),
                arrived.plus(Duration.ofMinutes(6))))
        .hasValueSatisfying(reason -> assertThat(reason).contains("replay"));
  }

  @Test
  void aServerErrorIsRetriedUnderTheSameMessageIdThenSucceeds() {
    String job = request("flaky: once", "flaky-1");

    assertThat(finished(job).get("result").get("answer").asString()).isEqualTo("second time lucky");
    List<Push> pushes = agent.pushesOf(job);
    assertThat(pushes).hasSize(2);
    assertThat(pushes).extracting(Push::id).containsOnly(pushes.get(0).id());
    assertThat(pushes).allSatisfy(push -> assertThat(push.refusal()).isEmpty());
  }

  @Test
  void aJobInterruptedWhileItsPushIsRetriedGetsNoFurtherPush() {
    String job = request("busy: retry me", "busy-1");
    await().atMost(PATIENCE).until(() -> !agent.pushesOf(job).isEmpty());

    String lead = api.memberToken(owner, teamId, "lead");
    JsonNode interrupted =
        api.post("/api/v1/teams/" + teamId + "/jobs/" + job + "/interrupt", lead, Map.of()).ok();
    assertThat(interrupted.get("state").asString()).isEqualTo("interrupted");
    int pushed = agent.pushesOf(job).size();
    // Without the interrupt the scheduler would push again every second until its five attempts
    // were spent; a push already on its way when the interrupt landed may still arrive.
    await()
        .during(Duration.ofSeconds(4))
        .atMost(PATIENCE)
        .until(() -> agent.pushesOf(job).size() <= pushed + 1);
    assertThat(api.get("/api/v1/jobs/" + job, owner).ok().get("state").asString())
        .isEqualTo("interrupted");
  }

  @Test
  void aPushWithoutAnAnswerLeavesTheJobUnknownUntilTheAgentIsAskedAgainUnderTheSameId() {
    String job = request("slow: think hard", "slow-1");

    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/jobs/" + job, owner).ok().get("state").asString(),
            "unknown"::equals);
    sawUnknown.countDown();

    JsonNode done = finished(job);
    assertThat(done.get("state").asString()).isEqualTo("completed");
    assertThat(done.get("result").get("answer").asString()).isEqualTo("reconciled from my record");
    List<Push> pushes = agent.pushesOf(job);
    assertThat(pushes.get(0).reconcile()).isFalse();
    assertThat(pushes.subList(1, pushes.size()))
        .isNotEmpty()
        .allSatisfy(push -> assertThat(push.reconcile()).isTrue());
    assertThat(pushes).extracting(Push::id).containsOnly(pushes.get(0).id());
    assertThat(pushes).allSatisfy(push -> assertThat(push.refusal()).isEmpty());
  }

  @Test
  void aQuestionInTheAnswerWaitsForTheOwnerAndTheAnswerIsPushedBack() {
    String job = request("ask: quarterly report", "ask-1");

    JsonNode waiting =
        await()
            .atMost(PATIENCE)
            .until(
                () -> api.get("/api/v1/jobs/" + job, owner).ok(),
                j -> j.get("state").asString().equals("waiting_input"));
    assertThat(waiting.get("question").get("text").asString()).isEqualTo("which region?");
    api.post("/api/v1/jobs/" + job + "/answer", owner, Map.of("text", "EMEA")).ok();

    assertThat(finished(job).get("result").get("answer").asString()).isEqualTo("report for EMEA");
    List<Push> pushes = agent.pushesOf(job);
    assertThat(pushes).hasSize(2);
    assertThat(pushes.get(1).id()).isNotEqualTo(pushes.get(0).id());
    assertThat(pushes.get(1).data().get("resume").get("question").asString())
        .isEqualTo("which region?");
  }

  @Test
  void aRotatedSecretSignsBesideThePreviousOneSoTheAgentCanSwitch() {
    String rotated =
        api.post("/api/v1/agents/hook/webhook-secret", owner, Map.of())
            .ok()
            .get("webhook_secret")
            .asString();
    assertThat(rotated).isNotEqualTo(secret);
    StandardWebhooksVerifier previousOnly = new StandardWebhooksVerifier(List.of(secret));
    StandardWebhooksVerifier newOnly = new StandardWebhooksVerifier(List.of(rotated));

    // The rotation reaches the scheduler through its event; a push after that verifies with both.
    List<String> jobs = new ArrayList<>();
    AtomicInteger round = new AtomicInteger();
    Push signedWithBoth =
        await()
            .atMost(PATIENCE)
            .until(
                () -> {
                  String job = request("sync: rotation " + round.incrementAndGet(), null);
                  jobs.add(job);
                  finished(job);
                  return agent.pushesOf(job).get(0);
                },
                push ->
                    newOnly
                        .refusal(
                            push.id(),
                            push.timestamp(),
                            push.signature(),
                            push.body(),
                            push.arrivedAt())
                        .isEmpty());
    assertThat(
            previousOnly.refusal(
                signedWithBoth.id(),
                signedWithBoth.timestamp(),
                signedWithBoth.signature(),
                signedWithBoth.body(),
                signedWithBoth.arrivedAt()))
        .isEmpty();
    assertThat(signedWithBoth.signature().split(" ")).hasSize(2);
    agent.verifyWith(List.of(secret, rotated));
  }

  @Test
  void aDeletedAgentsEndpointAndSecretsLeaveTheScheduler() {
    api.post(
            "/api/v1/agents",
            owner,
            Map.of(
                "id",
                "doomed",
                "name",
                "Doomed",
                "runtime",
                Map.of("kind", "webhook", "endpoint", agent.url())))
        .ok();
    await().atMost(PATIENCE).until(() -> runtimesInScheduler("doomed") == 1);

    api.call(HttpMethod.DELETE, "/api/v1/agents/doomed", owner, null).ok();

    // The deletion reaches the scheduler through the runtimes topic: it holds no endpoint or
    // secret of the agent any more, so its dispatchers have nothing to push to.
    await().atMost(PATIENCE).until(() -> runtimesInScheduler("doomed") == 0);
    assertThat(runtimesInScheduler("hook")).as("the other agent keeps its runtime").isEqualTo(1);
  }

  /** The scheduler's own record of how the owner's agent runs (its endpoint and secrets). */
  private static long runtimesInScheduler(String agentId) {
    return SharedStack.get()
        .context(Service.SCHEDULER)
        .getBean(DatabaseClient.class)
        .sql("SELECT count(*) AS n FROM push_agent WHERE owner_id = :owner AND agent_id = :agent")
        .bind("owner", "wanda-webhooks")
        .bind("agent", agentId)
        .map(row -> row.get("n", Long.class))
        .one()
        .block(Duration.ofSeconds(10));
  }

  private static String request(String text, String key) {
    Map<String, Object> body =
        key == null
            ? Map.of("recipients", List.of("lead"), "text", text)
            : Map.of("recipients", List.of("lead"), "text", text, "idempotency_key", key);
    return api.post("/api/v1/teams/" + teamId + "/requests", owner, body)
        .ok()
        .get("jobs")
        .get(0)
        .get("id")
        .asString();
  }

  private static JsonNode finished(String job) {
    return await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/jobs/" + job, owner).ok(),
            j ->
                List.of("completed", "failed", "cancelled", "interrupted")
                    .contains(j.get("state").asString()));
  }
}
