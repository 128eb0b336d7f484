package io.agentteams.devstack.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The A2A runtime against agents served by the official A2A JS SDK on loopback (the shared stack
 * allows 127.0.0.1 explicitly; every other private address stays refused). One node process serves
 * two agents: one whose card says it streams (followed by SendStreamingMessage) and one whose card
 * says it does not (sent with SendMessage, followed by GetTask polling).
 */
@RealInfrastructure
class A2aRuntimeIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private static Api api;
  private static A2aPeer peer;
  private static String owner;
  private static String teamId;
  private static final Map<String, String> conversations = new java.util.HashMap<>();

  @BeforeAll
  static void registerTheAgentsAndTheirTeam() throws Exception {
    api = new Api(SharedStack.get().url(Service.GATEWAY));
    owner = api.ownerToken("ada-a2a");
    peer = new A2aPeer();
    register("streamer", peer.streamingUrl());
    register("poller", peer.pollingUrl());
    teamId =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    "Remote",
                    "goal",
                    "Answer through A2A agents",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", "streamer", "lead", true),
                        Map.of("name", "second", "agent_id", "poller"))))
            .ok()
            .get("id")
            .asString();
    JsonNode team =
        await()
            .atMost(PATIENCE)
            .until(
                () -> api.get("/api/v1/teams/" + teamId, owner).ok(),
                t -> t.get("status").asString().equals("ready"));
    for (JsonNode member : team.get("members")) {
      conversations.put(member.get("name").asString(), member.get("conversation_id").asString());
    }
  }

  private static void register(String id, String endpoint) {
    api.post(
            "/api/v1/agents",
            owner,
            Map.of("id", id, "name", id, "runtime", Map.of("kind", "a2a", "endpoint", endpoint)))
        .ok();
  }

  @AfterAll
  static void stopTheAgents() {
    if (peer != null) {
      peer.close();
    }
  }

  @Test
  void aPolledAgentCompletesAJobSentUnderTheJobIdInTheMembersContext() throws Exception {
    String job = request("second", "summarise the quarter", "poll-1");

    JsonNode done = finished(job);
    assertThat(done.get("state").asString()).isEqualTo("completed");
    assertThat(done.get("result").get("answer").asString())
        .isEqualTo("echo: summarise the quarter");
    List<JsonNode> received = received(job);
    assertThat(received).hasSize(1);
    assertThat(received.get(0).get("contextId").asString()).isEqualTo(conversations.get("second"));
    assertThat(methodsOn(peer.pollingUrl()))
        .contains("SendMessage", "GetTask")
        .doesNotContain("SendStreamingMessage", "SubscribeToTask");
    assertThat(versions()).containsOnly("1.0");
  }

  @Test
  void aStreamingAgentAsksForInputAndTheOwnersAnswerGoesBackOnTheSameTask() throws Exception {
    String job = request("lead", "ask: paint the shed", "ask-1");

    JsonNode waiting =
        await()
            .atMost(PATIENCE)
            .until(
                () -> api.get("/api/v1/jobs/" + job, owner).ok(),
                j -> j.get("state").asString().equals("waiting_input"));
    assertThat(waiting.get("question").get("text").asString())
        .isEqualTo("Which colour should it be?");
    api.post("/api/v1/jobs/" + job + "/answer", owner, Map.of("text", "blue")).ok();

    JsonNode done = finished(job);
    assertThat(done.get("state").asString()).isEqualTo("completed");
    assertThat(done.get("result").get("answer").asString()).isEqualTo("painted it blue");
    JsonNode first = received(job).get(0);
    JsonNode answer =
        await()
            .atMost(PATIENCE)
            .until(() -> followUps(first.get("taskId").asString()), list -> !list.isEmpty())
            .get(0);
    assertThat(answer.get("text").asString()).isEqualTo("blue");
    assertThat(answer.get("contextId").asString()).isEqualTo(conversations.get("lead"));
    assertThat(answer.get("messageId").asString()).isNotEqualTo(job);
    assertThat(first.get("contextId").asString()).isEqualTo(conversations.get("lead"));
    assertThat(methodsOn(peer.streamingUrl())).contains("SendStreamingMessage");
  }

  @Test
  void aContinuedTaskWhoseStreamStartsWithAStatusUpdateIsFollowedAtOnce() throws Exception {
    String job = request("lead", "asks: paint the gate", "asks-1");
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/jobs/" + job, owner).ok().get("state").asString(),
            "waiting_input"::equals);

    api.post("/api/v1/jobs/" + job + "/answer", owner, Map.of("text", "green")).ok();

    JsonNode done = finished(job);
    assertThat(done.get("state").asString()).isEqualTo("completed");
    assertThat(done.get("result").get("answer").asString()).isEqualTo("painted it green");
    String task = received(job).get(0).get("taskId").asString();
    assertThat(followUps(task)).hasSize(1);
    // Followed on the answer's own stream: never left to lapse and reconciled with GetTask.
    assertThat(callsNaming(task, "GetTask")).isZero();
  }

  @Test
  void aJobCancelledHereCancelsItsTaskAtTheAgent() throws Exception {
    String job = request("lead", "hold: until told", "hold-1");
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/jobs/" + job, owner).ok().get("state").asString(),
            "running"::equals);
    String task = received(job).get(0).get("taskId").asString();

    api.post("/api/v1/jobs/" + job + "/cancel", owner, Map.of()).ok();

    await()
        .atMost(PATIENCE)
        .untilAsserted(() -> assertThat(strings(peer.log().get("cancelled"))).contains(task));
    assertThat(finished(job).get("state").asString()).isEqualTo("cancelled");
    assertThat(methodsOn(peer.streamingUrl())).contains("CancelTask");
  }

  /**
   * The lead's interrupt of a member's running job ends the job {@code interrupted} and is carried
   * to the member's agent as CancelTask on the job's task.
   */
  @Test
  void aJobInterruptedByTheLeadCancelsItsTaskAtTheAgent() throws Exception {
    String job = request("second", "hold: until interrupted", "hold-interrupt-1");
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/jobs/" + job, owner).ok().get("state").asString(),
            "running"::equals);
    String task = received(job).get(0).get("taskId").asString();

    JsonNode interrupted =
        api.post(
                "/api/v1/teams/" + teamId + "/jobs/" + job + "/interrupt",
                api.memberToken(owner, teamId, "lead"),
                Map.of())
            .ok();
    assertThat(interrupted.get("state").asString()).isEqualTo("interrupted");

    await()
        .atMost(PATIENCE)
        .untilAsserted(() -> assertThat(strings(peer.log().get("cancelled"))).contains(task));
    assertThat(finished(job).get("state").asString()).isEqualTo("interrupted");
    assertThat(methodsOn(peer.pollingUrl())).contains("CancelTask");
  }

  @Test
  void aSchedulerStoppedMidTaskReconcilesItWithGetTaskAndNeverSendsItAgain() throws Exception {
    String job = request("lead", "gate: through a restart", "gate-1");
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/jobs/" + job, owner).ok().get("state").asString(),
            "running"::equals);
    String task = received(job).get(0).get("taskId").asString();
    int getTasksBefore = count(methodsOn(peer.streamingUrl()), "GetTask");

    ServiceStack stack = SharedStack.get();
    stack.stop(Service.SCHEDULER);
    stack.startAgain(Service.SCHEDULER);
    // The restarted scheduler finds the lapsed lease and asks the agent about the recorded task.
    await()
        .atMost(PATIENCE)
        .until(() -> count(methodsOn(peer.streamingUrl()), "GetTask") > getTasksBefore);
    peer.release(task);

    JsonNode done = finished(job);
    assertThat(done.get("state").asString()).isEqualTo("completed");
    assertThat(done.get("result").get("answer").asString()).isEqualTo("released");
    assertThat(received(job)).as("the message was sent once").hasSize(1);
  }

  @Test
  void anAgentAskingForAuthenticationDisconnectsTheTeamAndTheReconnectReconcilesWithGetTask()
      throws Exception {
    String gatedTeam =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    "Gated",
                    "goal",
                    "Needs a fresh sign-in",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", "streamer", "lead", true),
                        Map.of("name", "second", "agent_id", "poller"))))
            .ok()
            .get("id")
            .asString();
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/teams/" + gatedTeam, owner).ok().get("status").asString(),
            "ready"::equals);
    String job =
        api.post(
                "/api/v1/teams/" + gatedTeam + "/requests",
                owner,
                Map.of(
                    "recipients",
                    List.of("lead"),
                    "text",
                    "deny: the vault",
                    "idempotency_key",
                    "deny-1"))
            .ok()
            .get("jobs")
            .get(0)
            .get("id")
            .asString();

    JsonNode disconnected =
        await()
            .atMost(PATIENCE)
            .until(
                () -> api.get("/api/v1/teams/" + gatedTeam, owner).ok(),
                team -> team.get("status").asString().equals("disconnected"));
    assertThat(disconnected.get("status_reason").asString())
        .contains("asks for authentication")
        .contains("sign in again");
    // The job is kept, holding its slot, not marked done.
    assertThat(api.get("/api/v1/jobs/" + job, owner).ok().get("state").asString())
        .isEqualTo("unknown");

    // The agent is signed in again; the owner reconnects; the task is asked about, not resent.
    String task = received(job).get(0).get("taskId").asString();
    peer.release(task);
    int getTasksBefore = count(methodsOn(peer.streamingUrl()), "GetTask");
    assertThat(api.post("/api/v1/teams/" + gatedTeam + "/reconnect", owner, Map.of()).status())
        .isIn(200, 202);

    JsonNode done = finished(job);
    assertThat(done.get("state").asString()).isEqualTo("completed");
    assertThat(done.get("result").get("answer").asString()).isEqualTo("signed in");
    assertThat(count(methodsOn(peer.streamingUrl()), "GetTask")).isGreaterThan(getTasksBefore);
    assertThat(received(job)).as("the message was sent once").hasSize(1);
  }

  @Test
  void anAgentFailingItsTaskFailsTheJobWithTheReason() {
    String job = request("second", "fail: the impossible", "fail-1");

    JsonNode done = finished(job);
    assertThat(done.get("state").asString()).isEqualTo("failed");
    assertThat(done.get("result").get("error").asString())
        .contains("failed the task")
        .contains("the agent could not do it");
  }

  @Test
  void anA2aAgentOnAPrivateAddressIsRefusedWithTheReason() {
    Api.Response refused =
        api.post(
            "/api/v1/agents",
            owner,
            Map.of(
                "id",
                "inside",
                "name",
                "Inside",
                "runtime",
                Map.of("kind", "a2a", "endpoint", "http://10.1.2.3:8080")));

    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.body().get("code").asString()).isEqualTo("invalid-endpoint");
    assertThat(refused.body().get("detail").asString()).contains("private (10.0.0.0/8)");
  }

  private static String request(String member, String text, String key) {
    return api.post(
            "/api/v1/teams/" + teamId + "/requests",
            owner,
            Map.of("recipients", List.of(member), "text", text, "idempotency_key", key))
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

  /** The messages the agent received under the job's id. */
  private static List<JsonNode> received(String job) throws Exception {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode message : peer.log().get("received")) {
      if (message.get("messageId").asString().equals(job)) {
        found.add(message);
      }
    }
    return found;
  }

  /** The follow-up messages the agent received on a task. */
  private static List<JsonNode> followUps(String task) throws Exception {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode message : peer.log().get("received")) {
      if (message.get("taskId").asString().equals(task) && message.get("followUp").asBoolean()) {
        found.add(message);
      }
    }
    return found;
  }

  private static List<String> methodsOn(String baseUrl) throws Exception {
    int port = Integer.parseInt(baseUrl.substring(baseUrl.lastIndexOf(':') + 1));
    List<String> methods = new ArrayList<>();
    for (JsonNode call : peer.log().get("calls")) {
      if (call.get("port").asInt() == port) {
        methods.add(call.get("method").asString());
      }
    }
    return methods;
  }

  /** Calls of {@code method} that named the task. */
  private static int callsNaming(String task, String method) throws Exception {
    int calls = 0;
    for (JsonNode call : peer.log().get("calls")) {
      if (method.equals(call.get("method").asString())
          && task.equals(call.path("taskId").asString(""))) {
        calls++;
      }
    }
    return calls;
  }

  private static int count(List<String> methods, String method) {
    return (int) methods.stream().filter(method::equals).count();
  }

  private static List<String> versions() throws Exception {
    List<String> versions = new ArrayList<>();
    for (JsonNode call : peer.log().get("calls")) {
      versions.add(call.get("version").asString());
    }
    return versions;
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asString()));
    return values;
  }
}
