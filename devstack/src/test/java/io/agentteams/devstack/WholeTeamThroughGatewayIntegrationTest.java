package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.MemberTools;
import io.agentteams.devstack.support.PullWorker;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;

/**
 * A whole team played the way an agent platform plays it, through the gateway alone: two agents, a
 * team, a worker stream per agent, an owner request; the lead works the board, publishes state,
 * hands off to its peer with {@code send_member}; the peer answers; the receipt brings the answer
 * back; the owner sees request/result pairs in the activity and every step on the team stream.
 * Every member tool is called on the way, and every result is checked against its declared schema.
 */
@RealInfrastructure
class WholeTeamThroughGatewayIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private static Api api;

  @BeforeAll
  static void connect() {
    api = new Api(SharedStack.get().url(Service.GATEWAY));
  }

  @Test
  void aTeamWorksARequestHandsOffAndReturnsTheReceiptOnlyThroughTheGateway() throws Exception {
    String owner = api.ownerToken("olivia");
    for (String agent : List.of("planner", "analyst")) {
      api.post(
              "/api/v1/agents",
              owner,
              Map.of(
                  "id",
                  agent,
                  "name",
                  agent,
                  "description",
                  agent + " agent",
                  "runtime",
                  Map.of("kind", "pull")))
          .ok();
    }
    JsonNode created =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    "Launch notes",
                    "goal",
                    "Write the launch notes",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", "planner", "lead", true),
                        Map.of("name", "peer", "agent_id", "analyst"))))
            .ok();
    String teamId = created.get("id").asString();
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/teams/" + teamId, owner).ok().get("status").asString(),
            "ready"::equals);

    List<ServerSentEvent<String>> teamStream = new CopyOnWriteArrayList<>();
    Disposable watching =
        api.stream("/api/v1/teams/" + teamId + "/events", owner)
            .filter(event -> event.event() != null)
            .subscribe(teamStream::add);
    MemberTools tools = new MemberTools(api, owner);
    CompletableFuture<JsonNode> waited = new CompletableFuture<>();
    List<String> handOffJobs = new CopyOnWriteArrayList<>();

    try (PullWorker leadWorker =
            new PullWorker(
                api,
                api.workerToken(owner, "planner"),
                "planner",
                (client, offer) -> lead(tools, offer, waited, handOffJobs));
        PullWorker peerWorker =
            new PullWorker(
                api,
                api.workerToken(owner, "analyst"),
                "analyst",
                (client, offer) -> peer(tools, offer))) {

      JsonNode request =
          api.post(
                  "/api/v1/teams/" + teamId + "/requests",
                  owner,
                  Map.of(
                      "recipients", List.of("lead"),
                      "text", "Draft the launch notes with the analyst",
                      "idempotency_key", "launch-1"))
              .ok();
      String requestJob = request.get("jobs").get(0).get("id").asString();

      // The owner sees the request with its result, and the hand-off with its receipt.
      JsonNode activity =
          await()
              .atMost(PATIENCE)
              .until(
                  () -> api.get("/api/v1/teams/" + teamId + "/activity", owner).ok(),
                  a -> finished(a, requestJob) && receiptFinished(a));
      assertThat(leadWorker.failures()).isEmpty();
      assertThat(peerWorker.failures()).isEmpty();
      JsonNode ownerItem = item(activity, requestJob);
      assertThat(ownerItem.get("request").get("result").get("answer").asString())
          .isEqualTo("launch notes drafted");
      JsonNode handOffItem = item(activity, handOffJobs.get(0));
      assertThat(handOffItem.get("request").get("requester").asString()).isEqualTo("lead");
      assertThat(handOffItem.get("request").get("member").asString()).isEqualTo("peer");
      assertThat(handOffItem.get("request").get("result").get("answer").asString())
          .isEqualTo("peer findings: ship it");
      assertThat(handOffItem.get("receipt").get("member").asString()).isEqualTo("lead");
      assertThat(handOffItem.get("receipt").get("state").asString()).isEqualTo("completed");
      // The receipt reached the lead's conversation as a job of its own.
      assertThat(leadWorker.offers())
          .extracting(o -> o.get("kind").asString())
          .contains("request", "receipt");

      assertThat(waited.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).get("changed").asBoolean())
          .isTrue();
      assertThat(tools.checked()).containsExactlyInAnyOrderElementsOf(tools.names());

      // Every step was on the team stream.
      List<String> steps =
          List.of(
              "JobRequested",
              "JobStateChanged",
              "TaskCreated",
              "TaskClaimed",
              "TaskReleased",
              "TaskReassigned",
              "TaskCompleted",
              "TaskFailed",
              "TeamStatePublished",
              "TeamStateUpdated",
              "MessageQueued",
              "MessageDelivered",
              "JobResultRecorded");
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(teamStream).extracting(ServerSentEvent::event).containsAll(steps));
      List<String> ids = new ArrayList<>();
      teamStream.forEach(e -> ids.add(e.id()));
      assertThat(ids).doesNotHaveDuplicates();
    } finally {
      watching.dispose();
    }
  }

  /** The lead: works the board and the state, messages and hands off; then takes the receipt. */
  private static String lead(
      MemberTools tools,
      JsonNode offer,
      CompletableFuture<JsonNode> waited,
      List<String> handOffs) {
    String token = offer.get("member_token").asString();
    String team = offer.get("team_id").asString();
    if (offer.get("kind").asString().equals("receipt")) {
      return takeReceipt(tools, token, team, offer);
    }
    Map<String, Object> t = Map.of("team_id", team);
    CompletableFuture.supplyAsync(
            () -> tools.call("wait", token, Map.of("team_id", team, "timeout_ms", 30_000)))
        .whenComplete(
            (result, failure) -> {
              if (failure != null) {
                waited.completeExceptionally(failure);
              } else {
                waited.complete(result);
              }
            });
    JsonNode context = tools.call("read_team_context", token, t);
    assertThat(context.get("goal").asString()).isEqualTo("Write the launch notes");
    assertThat(context.get("you").asString()).isEqualTo("lead");

    JsonNode draft =
        tools.call(
            "create_task",
            token,
            with(t, Map.of("title", "Draft the notes", "write_scopes", List.of("docs/launch"))));
    long draftId = draft.get("task").get("id").asLong();
    JsonNode review =
        tools.call(
            "create_task",
            token,
            with(t, Map.of("title", "Review", "dependencies", List.of(draftId))));
    JsonNode spare = tools.call("create_task", token, with(t, Map.of("title", "Spare")));
    JsonNode risky = tools.call("create_task", token, with(t, Map.of("title", "Risky")));

    JsonNode claimed = claim(tools, token, team, draft.get("task"));
    JsonNode beat =
        tools.call(
            "heartbeat_task",
            token,
            with(task(team, claimed), Map.of("phase", "drafting", "percent", 50)));

    JsonNode spareClaim = claim(tools, token, team, spare.get("task"));
    JsonNode released = tools.call("release_task", token, task(team, spareClaim));
    tools.call("reassign_task", token, with(task(team, released), Map.of("member", "peer")));
    JsonNode riskyClaim = claim(tools, token, team, risky.get("task"));
    tools.call("fail_task", token, with(task(team, riskyClaim), Map.of("error", "not needed")));

    JsonNode published =
        tools.call(
            "publish_team_state",
            token,
            with(
                t,
                Map.of(
                    "request_id", "finding-1",
                    "kind", "finding",
                    "title", "Audience",
                    "content", "Developers first")));
    JsonNode entry = published.get("entry");
    tools.call(
        "update_team_state",
        token,
        with(
            t,
            Map.of(
                "entry_id", entry.get("id").asLong(),
                "expected_revision", entry.get("revision").asLong(),
                "content", "Developers first, then operators")));
    JsonNode state = tools.call("read_team_state", token, t);
    assertThat(state.get("entries").get(0).get("content").asString())
        .isEqualTo("Developers first, then operators");

    tools.call(
        "send_message", token, with(t, Map.of("to", "peer", "text", "Draft is on the board")));
    tools.call("broadcast", token, with(t, Map.of("broadcast", true, "text", "Kick-off")));
    JsonNode handOff =
        tools.call(
            "send_member",
            token,
            with(
                t,
                Map.of(
                    "recipients", List.of("peer"),
                    "text", "What should the notes stress?",
                    "idempotency_key", "ask-peer-1")));
    handOffs.add(handOff.get("jobs").get(0).get("id").asString());

    JsonNode done =
        tools.call(
            "complete_task", token, with(task(team, beat), Map.of("result", "notes drafted")));
    assertThat(done.get("effects"))
        .extracting(e -> e.get("task_id").asLong())
        .contains(review.get("task").get("id").asLong());
    JsonNode board = tools.call("list_tasks", token, t);
    assertThat(board.get("items")).hasSize(4);
    assertThat(board.get("next_cursor").isNull()).isTrue();
    // The same board a page of three at a time, over MCP: the first page's cursor leads to the
    // rest.
    JsonNode first = tools.callOverMcp("list_tasks", token, with(t, Map.of("limit", 3)));
    assertThat(first.get("items")).hasSize(3);
    JsonNode rest =
        tools.callOverMcp(
            "list_tasks",
            token,
            with(t, Map.of("limit", 3, "cursor", first.get("next_cursor").asString())));
    assertThat(rest.get("next_cursor").isNull()).isTrue();
    List<Long> paged = new ArrayList<>();
    first.get("items").forEach(task -> paged.add(task.get("id").asLong()));
    rest.get("items").forEach(task -> paged.add(task.get("id").asLong()));
    List<Long> whole = new ArrayList<>();
    board.get("items").forEach(task -> whole.add(task.get("id").asLong()));
    assertThat(paged).isEqualTo(whole);
    return "launch notes drafted";
  }

  /** The lead's next turn: the peer's answer came back; it reads the shared record of it. */
  private static String takeReceipt(MemberTools tools, String token, String team, JsonNode offer) {
    Map<String, Object> t = Map.of("team_id", team);
    String handOff = offer.get("parent_job_id").asString();
    JsonNode result =
        await()
            .atMost(PATIENCE)
            .until(
                () -> tools.raw("read_team_result", token, with(t, Map.of("job_id", handOff))),
                r -> r.status() == 200)
            .body();
    assertThat(result.get("answer").get("text").asString()).isEqualTo("peer findings: ship it");
    tools.call("read_team_result", token, with(t, Map.of("job_id", handOff)));
    JsonNode found = tools.call("search_team_results", token, with(t, Map.of("query", "ship")));
    assertThat(found.get("results")).isNotEmpty();
    JsonNode history = tools.call("read_team_history", token, with(t, Map.of("member_id", "lead")));
    assertThat(history.get("records")).isNotEmpty();
    return "thanks, noted";
  }

  /** The peer: reads what the lead sent it, then answers the hand-off. */
  private static String peer(MemberTools tools, JsonNode offer) {
    String token = offer.get("member_token").asString();
    String team = offer.get("team_id").asString();
    assertThat(offer.get("requester").asString()).isEqualTo("lead");
    // An MCP client sees the same team through the same member token.
    JsonNode context = tools.callOverMcp("read_team_context", token, Map.of("team_id", team));
    assertThat(context.get("you").asString()).isEqualTo("peer");
    List<String> texts = new CopyOnWriteArrayList<>();
    await()
        .atMost(PATIENCE)
        .until(
            () -> {
              tools
                  .call("read_messages", token, Map.of("team_id", team))
                  .get("messages")
                  .forEach(m -> texts.add(m.get("text").asString()));
              return texts.containsAll(List.of("Draft is on the board", "Kick-off"));
            });
    return "peer findings: ship it";
  }

  private static JsonNode claim(MemberTools tools, String token, String team, JsonNode task) {
    return tools.call("claim_task", token, task(team, task)).get("task");
  }

  /** The input naming a task at the revision last seen (from a task or an outcome). */
  private static Map<String, Object> task(String team, JsonNode taskOrOutcome) {
    JsonNode task = taskOrOutcome.has("task") ? taskOrOutcome.get("task") : taskOrOutcome;
    return Map.of(
        "team_id",
        team,
        "task_id",
        task.get("id").asLong(),
        "expected_revision",
        task.get("revision").asLong());
  }

  private static Map<String, Object> with(Map<String, Object> base, Map<String, ?> more) {
    Map<String, Object> all = new java.util.LinkedHashMap<>(base);
    all.putAll(more);
    return all;
  }

  private static JsonNode item(JsonNode activity, String jobId) {
    for (JsonNode item : activity.get("items")) {
      if (item.get("request").get("id").asString().equals(jobId)) {
        return item;
      }
    }
    throw new AssertionError("job " + jobId + " not in the activity: " + activity);
  }

  private static boolean finished(JsonNode activity, String jobId) {
    for (JsonNode item : activity.get("items")) {
      if (item.get("request").get("id").asString().equals(jobId)) {
        return item.get("request").get("state").asString().equals("completed");
      }
    }
    return false;
  }

  private static boolean receiptFinished(JsonNode activity) {
    for (JsonNode item : activity.get("items")) {
      JsonNode receipt = item.get("receipt");
      if (receipt != null
          && !receipt.isNull()
          && receipt.get("state").asString().equals("completed")) {
        return true;
      }
    }
    return false;
  }
}
