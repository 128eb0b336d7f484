package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * Another owner, and a member token of another team, call every id-bearing endpoint and stream of
 * an owner's team through the gateway: every call is refused, no answer carries anything of the
 * team, and nothing of the team changed.
 */
@RealInfrastructure
class IsolationIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  /** Words that only the victim's data contains; no refusal may echo one. */
  private static final List<String> SECRETS =
      List.of("Zanzibar", "Quokka", "Marzipan", "Xylophone", "Okapi");

  private static Api api;

  @BeforeAll
  static void connect() {
    api = new Api(SharedStack.get().url(Service.GATEWAY));
  }

  private record Call(HttpMethod method, String path, Object body) {}

  @Test
  void anotherOwnerAndAnotherTeamsMemberAreRefusedEverywhereAndLearnNothing() {
    // The victim's team, with something behind every id.
    String alice = api.ownerToken("alice-victim");
    register(alice, "alice-agent-1");
    register(alice, "alice-agent-2");
    String team = team(alice, "Zanzibar team", "alice-agent-1", "alice-agent-2");
    String aliceMember = api.memberToken(alice, team, "lead");
    JsonNode task =
        api.post("/api/v1/teams/" + team + "/tasks", aliceMember, Map.of("title", "Quokka task"))
            .ok()
            .get("task");
    JsonNode entry =
        api.post(
                "/api/v1/teams/" + team + "/state",
                aliceMember,
                Map.of(
                    "request_id", "r1", "kind", "finding", "title", "Marzipan", "content", "Okapi"))
            .ok()
            .get("entry");
    api.post(
            "/api/v1/teams/" + team + "/messages",
            aliceMember,
            Map.of("to", "peer", "text", "Xylophone note"))
        .ok();
    String job =
        api.post(
                "/api/v1/teams/" + team + "/requests",
                alice,
                Map.of("recipients", List.of("peer"), "text", "Xylophone request"))
            .ok()
            .get("jobs")
            .get(0)
            .get("id")
            .asString();
    JsonNode plan =
        api.post(
                "/api/v1/teams/" + team + "/plans",
                aliceMember,
                Map.of(
                    "tasks",
                    List.of(Map.of("id", "okapi-step", "title", "Okapi step")),
                    "require_approval",
                    true))
            .ok();
    String planId = plan.get("plan").get("id").asString();
    api.post("/api/v1/teams/" + team + "/tasks", aliceMember, Map.of("title", "Quokka sequel"))
        .ok();
    // A cursor the task board issued to Alice's member: an intruder replaying it learns nothing.
    String taskCursor =
        api.get("/api/v1/teams/" + team + "/tasks?limit=1", aliceMember)
            .ok()
            .get("next_cursor")
            .asString();
    api.workerToken(alice, "alice-agent-1");
    String aliceTokenId =
        api.get("/api/v1/tokens?agent_id=alice-agent-1", alice)
            .ok()
            .get("tokens")
            .get(0)
            .get("id")
            .asString();
    Snapshot before = snapshot(alice, team);

    // The intruders: another owner with a team of its own, and that team's member.
    String mallory = api.ownerToken("mallory-intruder");
    register(mallory, "mallory-agent-1");
    register(mallory, "mallory-agent-2");
    String malloryTeam = team(mallory, "Intruders", "mallory-agent-1", "mallory-agent-2");
    String malloryMember = api.memberToken(mallory, malloryTeam, "lead");
    String malloryWorker = api.workerToken(mallory, "mallory-agent-1");

    String t = "/api/v1/teams/" + team;
    long taskId = task.get("id").asLong();
    long entryId = entry.get("id").asLong();
    Map<String, Object> revision = Map.of("expected_revision", task.get("revision").asLong());
    List<Call> calls =
        List.of(
            new Call(HttpMethod.GET, t, null),
            new Call(HttpMethod.DELETE, t, null),
            new Call(HttpMethod.POST, t + "/reconnect", Map.of()),
            new Call(HttpMethod.GET, t + "/state", null),
            new Call(HttpMethod.GET, t + "/state/" + entryId, null),
            new Call(
                HttpMethod.POST,
                t + "/state",
                Map.of("request_id", "x", "kind", "finding", "title", "t", "content", "c")),
            new Call(
                HttpMethod.PUT,
                t + "/state/" + entryId,
                Map.of("expected_revision", entry.get("revision").asLong(), "content", "c")),
            new Call(HttpMethod.GET, t + "/context", null),
            new Call(HttpMethod.POST, t + "/messages", Map.of("to", "peer", "text", "hi")),
            new Call(HttpMethod.POST, t + "/messages", Map.of("broadcast", true, "text", "hi")),
            new Call(HttpMethod.GET, t + "/inbox", null),
            // Read parameters and acknowledgement bodies are read only once the caller is admitted.
            new Call(HttpMethod.GET, t + "/inbox?limit=0&after=-1", null),
            new Call(HttpMethod.POST, t + "/inbox/ack", Map.of("lease_id", "not-a-lease")),
            new Call(HttpMethod.POST, t + "/inbox/ack", Map.of()),
            new Call(HttpMethod.GET, t + "/history", null),
            new Call(HttpMethod.GET, t + "/results", null),
            new Call(HttpMethod.GET, t + "/results/" + job, null),
            new Call(HttpMethod.GET, t + "/tasks", null),
            // Paging parameters are read only once the caller is admitted: no 400 for outsiders.
            new Call(HttpMethod.GET, t + "/tasks?limit=1&cursor=" + taskCursor, null),
            new Call(HttpMethod.GET, t + "/tasks?limit=0", null),
            new Call(HttpMethod.GET, t + "/tasks?limit=many&include_deleted=maybe", null),
            new Call(HttpMethod.GET, t + "/tasks?cursor=not-a-cursor&status=sleeping", null),
            new Call(HttpMethod.POST, t + "/tasks", Map.of("title", "intrusion")),
            new Call(HttpMethod.GET, t + "/tasks/" + taskId, null),
            new Call(
                HttpMethod.PATCH,
                t + "/tasks/" + taskId,
                Map.of("expected_revision", 1, "title", "x")),
            new Call(HttpMethod.DELETE, t + "/tasks/" + taskId + "?expected_revision=1", null),
            new Call(HttpMethod.POST, t + "/tasks/" + taskId + "/claim", revision),
            new Call(HttpMethod.POST, t + "/tasks/" + taskId + "/release", revision),
            new Call(
                HttpMethod.POST,
                t + "/tasks/" + taskId + "/reassign",
                Map.of("expected_revision", 1, "member", "peer")),
            new Call(HttpMethod.POST, t + "/tasks/" + taskId + "/heartbeat", revision),
            new Call(HttpMethod.POST, t + "/tasks/" + taskId + "/complete", revision),
            new Call(HttpMethod.POST, t + "/tasks/" + taskId + "/fail", revision),
            new Call(
                HttpMethod.POST,
                t + "/plans",
                Map.of("tasks", List.of(Map.of("id", "a", "title", "a")))),
            new Call(
                HttpMethod.POST,
                t + "/plans/" + planId + "/approve",
                Map.of("expected_revision", plan.get("plan").get("revision").asLong())),
            new Call(
                HttpMethod.POST,
                t + "/requests",
                Map.of("recipients", List.of("peer"), "text", "intrusion")),
            new Call(HttpMethod.GET, t + "/activity", null),
            // The team's A2A streams, refused before the body is read.
            new Call(
                HttpMethod.POST,
                t + "/a2a",
                Map.of(
                    "jsonrpc",
                    "2.0",
                    "id",
                    1,
                    "method",
                    "SubscribeToTask",
                    "params",
                    Map.of("id", job))),
            new Call(
                HttpMethod.POST,
                t + "/a2a",
                Map.of(
                    "jsonrpc",
                    "2.0",
                    "id",
                    2,
                    "method",
                    "SendStreamingMessage",
                    "params",
                    Map.of(
                        "message",
                        Map.of(
                            "messageId",
                            "m1",
                            "role",
                            "ROLE_USER",
                            "parts",
                            List.of(Map.of("text", "Xylophone")))))),
            new Call(HttpMethod.GET, t + "/wait?timeout_ms=0", null),
            new Call(HttpMethod.GET, "/api/v1/jobs/" + job, null),
            new Call(HttpMethod.POST, "/api/v1/jobs/" + job + "/answer", Map.of("text", "x")),
            new Call(HttpMethod.POST, "/api/v1/jobs/" + job + "/cancel", Map.of()),
            new Call(
                HttpMethod.POST,
                "/api/v1/jobs/" + job + "/events",
                Map.of("type", "started", "lease_token", "guess")),
            new Call(HttpMethod.GET, "/api/v1/agents/alice-agent-1", null),
            new Call(HttpMethod.GET, "/api/v1/agents/alice-agent-1/worker", null),
            new Call(HttpMethod.PUT, "/api/v1/agents/alice-agent-1", Map.of("name", "x")),
            new Call(HttpMethod.POST, "/api/v1/agents/alice-agent-1/tokens", Map.of()),
            new Call(HttpMethod.POST, t + "/members/lead/tokens", Map.of()),
            new Call(HttpMethod.DELETE, "/api/v1/agents/alice-agent-1", null),
            new Call(HttpMethod.GET, "/api/v1/tokens?agent_id=alice-agent-1", null),
            new Call(HttpMethod.GET, "/api/v1/tokens?team_id=" + team + "&member=lead", null),
            new Call(HttpMethod.DELETE, "/api/v1/tokens/" + aliceTokenId, null),
            new Call(HttpMethod.DELETE, "/api/v1/tokens?agent_id=alice-agent-1", null),
            new Call(HttpMethod.DELETE, "/api/v1/tokens?team_id=" + team + "&member=lead", null));
    List<String> streams =
        List.of(
            t + "/events",
            t + "/members/lead/events",
            t + "/members/peer/events",
            "/api/v1/agents/alice-agent-1/jobs/stream");

    List<String> refusals = new ArrayList<>();
    SoftAssertions softly = new SoftAssertions();
    String ghostTeam = UUID.randomUUID().toString();
    String ghostJob = UUID.randomUUID().toString();
    String ghostToken = UUID.randomUUID().toString();
    for (String intruder : List.of(mallory, malloryMember, malloryWorker)) {
      for (Call call : calls) {
        Api.Response answer = api.call(call.method(), call.path(), intruder, call.body());
        String what =
            call.method() + " " + call.path() + " -> " + answer.status() + " " + answer.raw();
        softly.assertThat(answer.status()).as(what).isIn(403, 404);
        for (String secret : SECRETS) {
          softly.assertThat(answer.raw()).as(what).doesNotContain(secret);
        }
        // Existence does not leak: the answer is the one for ids that do not exist at all.
        String ghostPath =
            call.path()
                .replace(team, ghostTeam)
                .replace(job, ghostJob)
                .replace(aliceTokenId, ghostToken)
                .replace("alice-agent-1", "ghost-agent");
        Api.Response ghost = api.call(call.method(), ghostPath, intruder, call.body());
        softly.assertThat(answer.status()).as(what + " (as for nothing)").isEqualTo(ghost.status());
        softly.assertThat(code(answer)).as(what + " (as for nothing)").isEqualTo(code(ghost));
        // Another owner's team is not found, unless the operation is open to no owner at all
        // (a member's own inbox or state writes), which says nothing of the team.
        if (intruder.equals(mallory)
            && call.path().startsWith(t)
            && !code(answer).equals("wrong-caller-kind")) {
          softly.assertThat(answer.status()).as(what + ": another owner's team").isEqualTo(404);
        }
        // The caller is judged before the body: a malformed one changes nothing.
        if (call.body() != null) {
          Api.Response malformed = api.callRaw(call.method(), call.path(), intruder, "{not json");
          softly
              .assertThat(malformed.status())
              .as(call.method() + " " + call.path() + " with a malformed body: " + malformed.raw())
              .isEqualTo(answer.status());
        }
        refusals.add(what);
      }
      for (String stream : streams) {
        softly.assertThat(api.streamStatus(stream, intruder)).as(stream).isIn(403, 404);
        refusals.add(stream);
      }
    }
    softly.assertAll();
    assertThat(refusals).hasSize(3 * (calls.size() + streams.size()));

    // Nothing of the victim's team changed, and none of her tokens was revoked.
    assertThat(snapshot(alice, team)).isEqualTo(before);
    assertThat(api.get("/api/v1/tokens", alice).ok().get("tokens"))
        .isNotEmpty()
        .allSatisfy(token -> assertThat(token.path("revoked_at").isString()).isFalse());
  }

  private static String code(Api.Response answer) {
    return answer.body() == null ? "" : answer.body().path("code").asString("");
  }

  /** What an intrusion could have changed. */
  private record Snapshot(
      String team, String tasks, String state, String history, int jobs, String plan) {}

  private static Snapshot snapshot(String owner, String team) {
    String t = "/api/v1/teams/" + team;
    // The message and the request settle (delivered, admitted) before the comparison starts.
    JsonNode history =
        await()
            .atMost(PATIENCE)
            .until(() -> api.get(t + "/history", owner).ok(), h -> h.get("records").size() == 1);
    JsonNode teamView = api.get(t, owner).ok();
    return new Snapshot(
        teamView.get("status").asString() + "@" + teamView.get("revision").asLong(),
        api.get(t + "/tasks?include_deleted=true", owner).raw(),
        api.get(t + "/state?include_archived=true", owner).raw(),
        history.toString(),
        api.get(t + "/activity", owner).ok().get("items").size(),
        api.get(t + "/tasks?status=awaiting_approval", owner).raw());
  }

  private static void register(String owner, String agent) {
    api.post("/api/v1/agents", owner, Map.of("id", agent, "name", agent)).ok();
  }

  private static String team(String owner, String name, String agentA, String agentB) {
    String id =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    name,
                    "goal",
                    "Keep the " + name + " private",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", agentA, "lead", true),
                        Map.of("name", "peer", "agent_id", agentB))))
            .ok()
            .get("id")
            .asString();
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/teams/" + id, owner).ok().get("status").asString(),
            "ready"::equals);
    return id;
  }
}
