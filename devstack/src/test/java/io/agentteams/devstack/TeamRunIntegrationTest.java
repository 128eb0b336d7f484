package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.Sdk;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.messages.HistoryPage;
import io.agentteams.sdk.messages.Search;
import io.agentteams.sdk.streams.EventSubscription;
import io.agentteams.sdk.teams.NewTeam;
import io.agentteams.sdk.teams.Team;
import io.agentteams.sdk.worker.AgentWorker;
import io.agentteams.sdk.worker.JobContext;
import io.agentteams.sdk.worker.JobHandler;
import io.agentteams.sdk.worker.JobResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Team runs end to end through the gateway, with SDK workers as scripted members: the lead plans
 * (its answer as messy as planners write: prose, a fenced block, field aliases, mentions) and
 * synthesises; alpha, beta and gamma do the tasks. Each test's objective names its scenario, which
 * the members' scripts follow.
 *
 * <p>The plan: t1 (alpha), t2 (beta), t3 (gamma) are independent; t4 (alpha) needs t1 and t2, t5
 * (beta) needs t3, t6 (gamma) needs t4 and t5.
 */
@RealInfrastructure
class TeamRunIntegrationTest {

  private static final Duration PATIENCE = Sdk.PATIENCE;
  private static final Pattern TASK = Pattern.compile("Your task \\[([a-z0-9-]+)]");
  private static final Pattern SCENARIO = Pattern.compile("scenario:([a-z-]+)");
  private static final List<String> TASKS = List.of("t1", "t2", "t3", "t4", "t5", "t6");
  private static final Map<String, List<String>> DEPENDENCIES =
      Map.of(
          "t1", List.of(),
          "t2", List.of(),
          "t3", List.of(),
          "t4", List.of("t1", "t2"),
          "t5", List.of("t3"),
          "t6", List.of("t4", "t5"));

  private static final String PLAN =
      """
      Here is how I would split the objective.

      ```json
      {"plan": {"tasks": [
        {"task_id": "T1", "member": "@alpha", "goal": "Gather the facts"},
        {"task_id": "T2", "member": "Beta", "goal": "Gather the figures"},
        {"task_id": "T3", "assignee": "gamma", "instruction": "Gather the quotes"},
        {"id": "t4", "agent": "alpha", "description": "Combine facts and figures",
         "depends_on": ["t1", "t2"]},
        {"id": "t5", "assignee": "beta", "instruction": "Check the quotes", "deps": "t3"},
        {"id": "t6", "assignee": "gamma", "instruction": "Write it up",
         "dependencies": ["t4", "t5"],},
      ]}}
      ```
      I can adjust it if needed.
      """;

  /** Twelve independent tasks, for the chain's request limit. */
  private static final String MANY = many();

  private static String many() {
    StringBuilder plan = new StringBuilder("[");
    List<String> members = List.of("alpha", "beta", "gamma");
    for (int i = 1; i <= 12; i++) {
      plan.append(i == 1 ? "" : ",")
          .append("{\"id\": \"m")
          .append(i)
          .append("\", \"assignee\": \"")
          .append(members.get(i % 3))
          .append("\", \"instruction\": \"Part ")
          .append(i)
          .append("\"}");
    }
    return plan.append("]").toString();
  }

  private static Api api;
  private static String ownerToken;
  private static AgentTeamsClient owner;
  private static Team team;
  private static final List<AgentWorker> workers = new ArrayList<>();

  /** When each task's job started and ended in the workers, per scenario. */
  private static final Map<String, Instant> started = new ConcurrentHashMap<>();

  private static final Map<String, Instant> ended = new ConcurrentHashMap<>();

  /** Job runs per job id, across every member: a task run twice would show here. */
  private static final Map<String, Integer> runsPerJob = new ConcurrentHashMap<>();

  /** The first round's three tasks each wait here until all three have started. */
  private static final Map<String, CountDownLatch> together = new ConcurrentHashMap<>();

  /** The restart scenario's first round waits here until the scheduler is back. */
  private static final CountDownLatch restarted = new CountDownLatch(1);

  /** The cancel scenario's first round waits here until the run is cancelled. */
  private static final CountDownLatch cancelled = new CountDownLatch(1);

  private static final List<String> stream = new CopyOnWriteArrayList<>();
  private static EventSubscription events;

  @BeforeAll
  static void team() {
    String ownerId = Sdk.unique("rita");
    api = new Api(SharedStack.get().url(Service.GATEWAY));
    ownerToken = api.ownerToken(ownerId);
    owner = Sdk.owner(ownerId);
    List<String> members = List.of("lead", "alpha", "beta", "gamma");
    Sdk.agents(owner, members);
    team =
        Sdk.readyTeam(
            owner,
            new NewTeam(
                "Runs",
                "Run objectives as a team",
                List.of(
                    NewTeam.NewMember.lead("lead", "lead"),
                    NewTeam.NewMember.of("alpha", "alpha"),
                    NewTeam.NewMember.of("beta", "beta"),
                    NewTeam.NewMember.of("gamma", "gamma"))));
    events = owner.streams().team(team.id(), null, event -> stream.add(event.event()));
    workers.add(
        Sdk.worker(owner, "lead", counted(TeamRunIntegrationTest::lead)).maxJobs(2).start());
    for (String member : List.of("alpha", "beta", "gamma")) {
      workers.add(
          Sdk.worker(owner, member, counted(TeamRunIntegrationTest::member)).maxJobs(3).start());
    }
  }

  @AfterAll
  static void stop() {
    restarted.countDown();
    cancelled.countDown();
    together.values().forEach(latch -> latch.countDown());
    workers.forEach(AgentWorker::close);
    if (events != null) {
      events.close();
    }
    if (team != null) {
      Sdk.cancelUnfinished(owner, team.id());
    }
  }

  @Test
  void aRunPlansSixTasksRunsIndependentOnesInParallelInDependencyOrderAndSynthesises() {
    JsonNode run = start("six", Map.of("concurrency", 3));
    assertThat(run.get("state").asString()).isEqualTo("planning");
    assertThat(run.get("options").get("planner").asString()).isEqualTo("lead");
    assertThat(run.get("options").get("synthesiser").asString()).isEqualTo("lead");

    JsonNode done = awaitEnd(run);

    assertThat(done.get("state").asString()).isEqualTo("completed");
    assertThat(done.get("round").asInt()).isEqualTo(3);
    assertThat(tasks(done))
        .allSatisfy((key, task) -> assertThat(task.get("state").asString()).isEqualTo("completed"));
    assertThat(tasks(done).get("t4").get("dependencies").toString()).isEqualTo("[\"t1\",\"t2\"]");
    // The synthesis cites every task's output.
    for (String key : TASKS) {
      assertThat(done.get("result").asString()).contains("[" + key + "]", "output of " + key);
    }
    // The first round's three tasks overlapped: each started before any of them ended.
    Instant lastStart = latest(started, "six", List.of("t1", "t2", "t3"));
    for (String key : List.of("t1", "t2", "t3")) {
      assertThat(ended.get("six:" + key)).isAfter(lastStart);
    }
    // Dependency order: no task started before its dependencies ended.
    for (String key : TASKS) {
      for (String dependency : DEPENDENCIES.get(key)) {
        assertThat(started.get("six:" + key)).isAfter(ended.get("six:" + dependency));
      }
    }
    JsonNode export = export(done);
    assertOneJobPerTask(export);
    assertTheBoardFollowedTheRun(done);
    // Each task's input carried its dependencies' results.
    JsonNode t6 = jobOf(export, "t6");
    assertThat(t6.get("input").asString())
        .contains("Write it up", "[t4] by alpha: output of t4", "[t5] by beta: output of t5");
    assertThat(timelineKinds(export))
        .containsSubsequence(
            "run.started",
            "plan.requested",
            "plan.ready",
            "round.started",
            "task.assigned",
            "task.result",
            "round.started",
            "round.started",
            "synthesis.started",
            "run.complete");
    await().atMost(PATIENCE).until(() -> stream.contains("RunProgressed"));
    // The run wrote its progress into the team's shared record, for every member to see.
    String runId = done.get("id").asString();
    List<HistoryPage.Record> notices =
        await()
            .atMost(PATIENCE)
            .until(
                () ->
                    owner
                        .mailbox()
                        .history(team.id(), new Search(null, null, runId, 20, null))
                        .records(),
                records -> records.size() == 13);
    assertThat(notices)
        .allSatisfy(
            r -> {
              assertThat(r.senderKind()).isEqualTo("system");
              assertThat(r.recipients())
                  .containsExactlyInAnyOrder("lead", "alpha", "beta", "gamma");
            })
        .extracting(HistoryPage.Record::systemKind)
        .containsOnly("task.assigned", "task.result", "run.complete")
        .filteredOn("task.result"::equals)
        .hasSize(6);
    assertThat(notices)
        .filteredOn(r -> "task.result".equals(r.systemKind()) && r.text().contains("[t4]"))
        .singleElement()
        .satisfies(r -> assertThat(r.text()).contains("done by alpha: output of t4"));
  }

  @Test
  void aPlanRequiringApprovalWaitsForItAndARejectionEndsTheRunWithTheReason() {
    JsonNode held = start("approval", Map.of("require_plan_approval", true));
    JsonNode waiting = awaitState(held, "awaiting_approval");
    assertThat(tasks(waiting)).hasSize(6);
    assertThat(export(waiting).get("jobs")).as("only the planner's job").hasSize(1);
    // The board holds the run's plan for the same approval, and leaves that decision to the run.
    String planId = held.get("id").asString();
    assertThat(boardTasks(planId).values())
        .hasSize(6)
        .allSatisfy(t -> assertThat(t.get("status").asString()).isEqualTo("awaiting_approval"));
    JsonNode plan = api.get(planPath(planId), ownerToken).ok();
    assertThat(plan.get("status").asString()).isEqualTo("awaiting_approval");
    Api.Response onTheBoard =
        api.post(
            planPath(planId) + "/approve",
            ownerToken,
            Map.of("expected_revision", plan.get("revision").asLong()));
    assertThat(onTheBoard.status()).as(onTheBoard.raw()).isEqualTo(409);
    assertThat(onTheBoard.body().get("code").asString()).isEqualTo("plan-of-a-run");

    JsonNode approved = api.post(path(held) + "/approve", ownerToken, Map.of()).ok();
    assertThat(approved.get("state").asString()).isEqualTo("running");
    JsonNode done = awaitEnd(held);
    assertThat(done.get("state").asString()).isEqualTo("completed");
    assertOneJobPerTask(export(done));
    // Approving the run approved its board plan: one decision.
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get(planPath(planId), ownerToken).ok(),
            p -> p.get("status").asString().equals("approved"));
    assertTheBoardFollowedTheRun(done);

    JsonNode refused = start("reject", Map.of("require_plan_approval", true));
    awaitState(refused, "awaiting_approval");
    JsonNode rejected =
        api.post(path(refused) + "/reject", ownerToken, Map.of("reason", "too broad")).ok();
    assertThat(rejected.get("state").asString()).isEqualTo("failed");
    assertThat(rejected.get("reason").asString()).isEqualTo("plan rejected: too broad");
    assertThat(export(rejected).get("jobs")).hasSize(1);
    // The rejected run's held tasks leave the board's work: cancelled.
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(boardTasks(rejected.get("id").asString()).values())
                    .hasSize(6)
                    .allSatisfy(
                        t -> assertThat(t.get("status").asString()).isEqualTo("cancelled")));
    assertThat(api.post(path(refused) + "/approve", ownerToken, Map.of()).status()).isEqualTo(409);
  }

  @Test
  void aFailingMemberFailsTheRunOrIsRecordedAndTheRunGoesOn() {
    JsonNode stops = awaitEnd(start("fail-stop", Map.of()));
    assertThat(stops.get("state").asString()).isEqualTo("failed");
    assertThat(stops.get("reason").asString()).isEqualTo("task 't2' failed: no sources for t2");
    assertThat(tasks(stops).get("t6").get("state").asString()).isEqualTo("blocked");
    assertThat(
            stops.path("synthesis_job_id").isMissingNode()
                || stops.path("synthesis_job_id").isNull())
        .isTrue();

    JsonNode goesOn = awaitEnd(start("fail-go", Map.of("continue_on_member_error", true)));
    assertThat(goesOn.get("state").asString()).isEqualTo("completed");
    Map<String, JsonNode> tasks = tasks(goesOn);
    assertThat(tasks.get("t2").get("state").asString()).isEqualTo("failed");
    assertThat(tasks.get("t2").get("error").asString()).isEqualTo("no sources for t2");
    assertThat(tasks.get("t4").get("error").asString())
        .isEqualTo("dependency 't2' did not complete");
    assertThat(tasks.get("t6").get("state").asString()).isEqualTo("blocked");
    assertThat(tasks.get("t5").get("state").asString()).isEqualTo("completed");
    assertThat(goesOn.get("result").asString()).contains("[t2]", "no sources for t2");
  }

  @Test
  void reachingMaxRoundsBlocksTheRemainingTasksWithThatReason() {
    JsonNode done = awaitEnd(start("rounds", Map.of("max_rounds", 1)));

    assertThat(done.get("state").asString()).isEqualTo("completed");
    Map<String, JsonNode> tasks = tasks(done);
    for (String key : List.of("t4", "t5", "t6")) {
      assertThat(tasks.get(key).get("state").asString()).isEqualTo("blocked");
      assertThat(tasks.get(key).get("error").asString()).isEqualTo("max_rounds (1) reached");
    }
    assertThat(export(done).get("jobs")).hasSize(1 + 3 + 1);
  }

  /**
   * Every job reports 400 tokens and admission reserves 1000 (the devstack's default estimate): the
   * plan and three tasks fit a run budget of 2500, the fourth task's job does not (1600 spent, 900
   * left), so the run stops dispatching there and says why.
   */
  @Test
  void aRunWhoseBudgetAllowsOnlyPartOfThePlanStopsDispatchingAtTheBudget() {
    JsonNode done =
        awaitEnd(start("budget", Map.of("concurrency", 1, "budget", Map.of("max_tokens", 2500))));

    assertThat(done.get("state").asString()).isEqualTo("failed");
    assertThat(done.get("reason").asString())
        .startsWith("stopped at the budget: budget-exceeded: run.tokens budget")
        .contains("limit 2500, spent 1600, reserved 0, remaining 900, needed 1000");
    Map<String, JsonNode> tasks = tasks(done);
    for (String key : List.of("t1", "t2", "t3")) {
      assertThat(tasks.get(key).get("state").asString()).isEqualTo("completed");
    }
    for (String key : List.of("t4", "t5", "t6")) {
      assertThat(tasks.get(key).get("state").asString()).isEqualTo("blocked");
      assertThat(tasks.get(key).get("error").asString()).startsWith("budget-exceeded: run.tokens");
    }
    JsonNode export = export(done);
    // The plan, three tasks, and t4's job, refused at admission: nothing after it.
    assertThat(export.get("jobs")).hasSize(5);
    assertThat(jobOf(export, "t4").get("state").asString()).isEqualTo("failed");
    assertThat(
            jobOf(export, "t4").path("admitted_at").isNull()
                || jobOf(export, "t4").path("admitted_at").isMissingNode())
        .as("never admitted")
        .isTrue();
    assertThat(timelineKinds(export)).contains("run.budget_stopped");
    assertThat(export.get("spend").get("spent").get("tokens").asLong()).isEqualTo(1600);
    assertThat(export.get("spend").get("budget").get("max_tokens").asLong()).isEqualTo(2500);
    assertThat(export.get("spend").get("remaining_tokens").asLong()).isEqualTo(900);

    // The team's spend lists the run, and the members who spent it.
    JsonNode spend = api.get("/api/v1/teams/" + team.id() + "/spend", ownerToken).ok();
    JsonNode line = null;
    for (JsonNode run : spend.get("runs")) {
      if (run.get("id").asString().equals(done.get("id").asString())) {
        line = run;
      }
    }
    assertThat(line).as("the run's line in the team's spend").isNotNull();
    assertThat(line.get("spent").get("tokens").asLong()).isEqualTo(1600);

    // The team's shared record says so, as a system message to every member.
    String runId = done.get("id").asString();
    HistoryPage.Record stopped =
        await()
            .atMost(PATIENCE)
            .until(
                () ->
                    owner
                        .mailbox()
                        .history(team.id(), new Search(null, null, runId, 20, null))
                        .records()
                        .stream()
                        .filter(r -> "run.budget_stopped".equals(r.systemKind()))
                        .findFirst(),
                java.util.Optional::isPresent)
            .orElseThrow();
    assertThat(stopped.senderKind()).isEqualTo("system");
    assertThat(stopped.text()).contains("budget-exceeded: run.tokens", "limit 2500");
  }

  @Test
  void anUnreadablePlanFailsTheRunOrFallsBackToOneTaskPerMember() {
    JsonNode fails = awaitEnd(start("unreadable-fail", Map.of()));
    assertThat(fails.get("state").asString()).isEqualTo("failed");
    assertThat(fails.get("reason").asString())
        .startsWith("no plan: no plan could be read from the planner's answer");

    JsonNode falls =
        awaitEnd(start("unreadable-fallback", Map.of("on_unreadable_plan", "fallback")));
    assertThat(falls.get("state").asString()).isEqualTo("completed");
    assertThat(falls.get("plan_fallback").asBoolean()).isTrue();
    assertThat(tasks(falls)).containsOnlyKeys("lead", "alpha", "beta", "gamma");
    assertThat(falls.get("result").asString()).contains("output of alpha", "output of gamma");
  }

  @Test
  void aPlannerNamingAnUnknownMemberFailsTheRunSayingSo() {
    JsonNode done = awaitEnd(start("ghost", Map.of()));

    assertThat(done.get("state").asString()).isEqualTo("failed");
    assertThat(done.get("reason").asString())
        .startsWith("no plan: the task board refused the plan: ")
        .contains("'ghost' is not a member of the team");
    assertThat(export(done).get("jobs")).as("no task was dispatched to anyone else").hasSize(1);
    assertThat(boardTasks(done.get("id").asString())).as("nothing on the board").isEmpty();
  }

  @Test
  void aRunIsOneRequestChainAndStopsAtTheChainsRequestLimitNamingIt() {
    // Twelve tasks: the planner's job and eleven tasks make the chain's twelve requests (the
    // stack's scheduler.chain-max-requests); the twelfth task would be the thirteenth.
    JsonNode done = awaitEnd(start("many", Map.of("concurrency", 4, "max_rounds", 10)));

    assertThat(done.get("state").asString()).isEqualTo("failed");
    assertThat(done.get("reason").asString())
        .startsWith("stopped at the chain's request limit: ")
        .contains("scheduler.chain-max-requests: 13 requests exceeds the limit of 12");
    Map<String, JsonNode> tasks = tasks(done);
    assertThat(tasks).hasSize(12);
    assertThat(tasks.get("m12").get("state").asString()).isEqualTo("blocked");
    assertThat(tasks.get("m12").get("error").asString()).startsWith("chain-request-limit: ");
    assertThat(tasks.values())
        .filteredOn(t -> t.get("state").asString().equals("completed"))
        .hasSize(11);
    JsonNode export = export(done);
    assertThat(export.get("jobs")).as("the planner's and eleven tasks', no synthesis").hasSize(12);
    for (JsonNode job : export.get("jobs")) {
      assertThat(job.get("job").get("chain_id").asString())
          .as("every job of the run is a request of its chain")
          .isEqualTo(done.get("id").asString());
    }
    assertThat(timelineKinds(export)).contains("run.limit_stopped");
  }

  @Test
  void aTaskJobsInputCarriesTheTeamsGoalPublicStateAndRecentMessages() {
    long published = stream.stream().filter("TeamStatePublished"::equals).count();
    long queued = stream.stream().filter("MessageQueued"::equals).count();
    String lead = api.memberToken(ownerToken, team.id(), "lead");
    String entry = "Market size " + Sdk.unique("m");
    api.post(
            "/api/v1/teams/" + team.id() + "/state",
            lead,
            Map.of(
                "request_id",
                Sdk.unique("context"),
                "kind",
                "finding",
                "title",
                entry,
                "content",
                "The market is 4.2 bn"))
        .ok();
    String message = "Remember the Q3 figures " + Sdk.unique("q");
    api.post(
            "/api/v1/teams/" + team.id() + "/messages",
            lead,
            Map.of("to", "alpha", "text", message))
        .ok();
    // Both are on the team's topics (the stream relays them) before the run starts; the scheduler
    // learns them from there, as it learns nothing by asking another service.
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                stream.stream().filter("TeamStatePublished"::equals).count() > published
                    && stream.stream().filter("MessageQueued"::equals).count() > queued);

    JsonNode done = awaitEnd(start("context", Map.of()));

    assertThat(done.get("state").asString()).isEqualTo("completed");
    String input = jobOf(export(done), "c1").get("input").asString();
    assertThat(input)
        .contains(
            "Team goal:\nRun objectives as a team",
            "[finding] " + entry + ": The market is 4.2 bn",
            "lead (",
            "): " + message,
            "Your task [c1]");
  }

  @Test
  void aPlanTheBoardRefusesAsACycleFailsTheRunNamingIt() {
    JsonNode done = awaitEnd(start("cycle", Map.of()));

    assertThat(done.get("state").asString()).isEqualTo("failed");
    assertThat(done.get("reason").asString())
        .startsWith("no plan: the task board refused the plan: ")
        .contains("cycle", "t1", "t4", "t6");
    assertThat(export(done).get("jobs")).as("only the planner's job").hasSize(1);
    assertThat(boardTasks(done.get("id").asString())).as("nothing on the board").isEmpty();
  }

  @Test
  void badRunRequestsAreRefusedWithProblemDetailsAndNothingStarts() {
    Api.Response unknown =
        api.post(
            "/api/v1/teams/" + team.id() + "/runs",
            ownerToken,
            Map.of("objective", "x", "planner", "nobody"));
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.body().get("code").asString()).isEqualTo("unknown-member");
    Api.Response tooMany =
        api.post(
            "/api/v1/teams/" + team.id() + "/runs",
            ownerToken,
            Map.of("objective", "x", "concurrency", 1000));
    assertThat(tooMany.status()).isEqualTo(400);
    Api.Response stranger =
        api.post(
            "/api/v1/teams/" + team.id() + "/runs",
            api.ownerToken(Sdk.unique("eve")),
            Map.of("objective", "x"));
    assertThat(stranger.status()).isEqualTo(404);
  }

  @Test
  void cancellingARunCancelsItsUnfinishedJobsAndDispatchesNothingMore() {
    JsonNode run = start("cancel", Map.of("concurrency", 3));
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                List.of("t1", "t2", "t3").stream()
                    .allMatch(k -> started.containsKey("cancel:" + k)));

    JsonNode cancelledRun = api.post(path(run) + "/cancel", ownerToken, Map.of()).ok();

    assertThat(cancelledRun.get("state").asString()).isEqualTo("cancelled");
    assertThat(tasks(cancelledRun).values())
        .extracting(t -> t.get("state").asString())
        .containsOnly("cancelled");
    JsonNode export = export(cancelledRun);
    List<String> taskJobStates = new ArrayList<>();
    for (JsonNode job : export.get("jobs")) {
      if (job.get("role").asString().equals("task")) {
        taskJobStates.add(job.get("job").get("state").asString());
      }
    }
    assertThat(taskJobStates).containsExactly("cancelled", "cancelled", "cancelled");
    cancelled.countDown();
    assertThat(api.post(path(run) + "/cancel", ownerToken, Map.of()).status()).isEqualTo(409);
    assertThat(timelineKinds(export(run))).endsWith("run.cancelled");
  }

  @Test
  void theSchedulerRestartedMidRunContinuesItDispatchingEveryTaskOnceAndLosingNoResult() {
    ServiceStack stack = SharedStack.get();
    JsonNode run = start("restart", Map.of("concurrency", 3));
    // The first round is running (all three started) when the scheduler stops.
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                List.of("t1", "t2", "t3").stream()
                    .allMatch(k -> started.containsKey("restart:" + k)));
    stack.stop(Service.SCHEDULER);
    stack.startAgain(Service.SCHEDULER);
    // Then the task board, which follows the run's events it missed once it is back.
    stack.stop(Service.TASK_BOARD);
    stack.startAgain(Service.TASK_BOARD);
    restarted.countDown();

    JsonNode done = awaitEnd(run);

    assertThat(done.get("state").asString()).isEqualTo("completed");
    JsonNode export = export(done);
    assertOneJobPerTask(export);
    for (String key : TASKS) {
      assertThat(tasks(done).get(key).get("result").asString()).isEqualTo("output of " + key);
      assertThat(done.get("result").asString()).contains("output of " + key);
    }
    for (JsonNode job : export.get("jobs")) {
      assertThat(runsPerJob.get(job.get("job").get("id").asString()))
          .as("job %s ran once", job.get("task_id"))
          .isEqualTo(1);
    }
    // The board has each of the run's tasks once, done with its result.
    assertTheBoardFollowedTheRun(done);
  }

  // ---- the scripted members ----

  private static JobHandler counted(JobHandler handler) {
    return job -> {
      runsPerJob.merge(job.offer().jobId().toString(), 1, Integer::sum);
      return handler.handle(job);
    };
  }

  private static JobResult lead(JobContext job) throws InterruptedException {
    String input = job.offer().input();
    String scenario = scenario(input);
    if (input.startsWith("You plan a team run")) {
      if (scenario.equals("budget")) {
        return JobResult.completed(PLAN, io.agentteams.sdk.jobs.Usage.tokens(400));
      }
      return JobResult.completed(
          switch (scenario) {
            case "unreadable-fail", "unreadable-fallback" ->
                "I would rather not split this up; let us just do it.";
            case "ghost" -> PLAN.replace("\"Beta\"", "\"ghost\"");
            case "many" -> MANY;
            case "context" ->
                "[{\"id\": \"c1\", \"assignee\": \"alpha\", \"instruction\": \"Use it\"}]";
            case "cycle" ->
                PLAN.replace("\"Gather the facts\"", "\"Gather the facts\", \"after\": \"t6\"");
            default -> PLAN;
          });
    }
    if (input.contains("Compose the run's result")) {
      StringBuilder synthesis = new StringBuilder("Synthesis:");
      for (String line : input.split("\n")) {
        if (line.startsWith("- [")) {
          synthesis.append('\n').append(line);
        }
      }
      return JobResult.completed(synthesis.toString());
    }
    return member(job);
  }

  private static JobResult member(JobContext job) throws InterruptedException {
    String input = job.offer().input();
    String scenario = scenario(input);
    Matcher task = TASK.matcher(input);
    assertThat(task.find()).isTrue();
    String key = task.group(1);
    started.put(scenario + ":" + key, Instant.now());
    try {
      if (scenario.startsWith("fail") && key.equals("t2")) {
        return JobResult.failed("no sources for t2", io.agentteams.sdk.jobs.Usage.NONE);
      }
      if ((scenario.equals("six") || scenario.equals("restart")) && key.matches("t[123]")) {
        CountDownLatch all = together.computeIfAbsent(scenario, s -> new CountDownLatch(3));
        all.countDown();
        all.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        if (scenario.equals("restart")) {
          restarted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
      }
      if (scenario.equals("cancel")) {
        cancelled.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      }
      if (scenario.equals("budget")) {
        return JobResult.completed("output of " + key, io.agentteams.sdk.jobs.Usage.tokens(400));
      }
      return JobResult.completed("output of " + key);
    } finally {
      ended.put(scenario + ":" + key, Instant.now());
    }
  }

  private static String scenario(String input) {
    Matcher matcher = SCENARIO.matcher(input);
    return matcher.find() ? matcher.group(1) : "";
  }

  // ---- the API ----

  private static JsonNode start(String scenario, Map<String, Object> options) {
    Map<String, Object> body = new HashMap<>(options);
    body.put("objective", "Brief the board on the market (scenario:" + scenario + ")");
    Api.Response created = api.post("/api/v1/teams/" + team.id() + "/runs", ownerToken, body);
    assertThat(created.status()).as(created.raw()).isEqualTo(201);
    return created.body();
  }

  private static String path(JsonNode run) {
    return "/api/v1/teams/" + team.id() + "/runs/" + run.get("id").asString();
  }

  private static JsonNode get(JsonNode run) {
    return api.get(path(run), ownerToken).ok();
  }

  private static JsonNode awaitEnd(JsonNode run) {
    return await()
        .atMost(PATIENCE)
        .until(
            () -> get(run),
            r -> List.of("completed", "failed", "cancelled").contains(r.get("state").asString()));
  }

  private static JsonNode awaitState(JsonNode run, String state) {
    return await()
        .atMost(PATIENCE)
        .until(() -> get(run), r -> r.get("state").asString().equals(state));
  }

  private static String planPath(String planId) {
    return "/api/v1/teams/" + team.id() + "/plans/" + planId;
  }

  /** The board's tasks of the run's plan (the plan's id is the run's), by their plan key. */
  private static Map<String, JsonNode> boardTasks(String runId) {
    JsonNode body = api.get("/api/v1/teams/" + team.id() + "/tasks", ownerToken).ok();
    JsonNode list = body.isArray() ? body : body.path("items");
    Map<String, JsonNode> tasks = new LinkedHashMap<>();
    for (JsonNode task : list) {
      if (runId.equals(task.path("plan_id").asString(""))) {
        assertThat(tasks.put(task.get("plan_key").asString(), task))
            .as("task %s once on the board", task.get("plan_key"))
            .isNull();
      }
    }
    return tasks;
  }

  /**
   * The run's tasks are on the board once each, owned by their assignees, with the plan's
   * dependencies, and each ended as the run's did (completed with its result).
   */
  private static void assertTheBoardFollowedTheRun(JsonNode run) {
    Map<String, JsonNode> runTasks = tasks(run);
    Map<String, JsonNode> board =
        await()
            .atMost(PATIENCE)
            .until(
                () -> boardTasks(run.get("id").asString()),
                b ->
                    b.size() == runTasks.size()
                        && b.values().stream()
                            .allMatch(t -> t.get("status").asString().equals("completed")));
    Map<Long, String> keyOf = new HashMap<>();
    board.forEach((key, task) -> keyOf.put(task.get("id").asLong(), key));
    for (Map.Entry<String, JsonNode> entry : runTasks.entrySet()) {
      JsonNode onBoard = board.get(entry.getKey());
      JsonNode inRun = entry.getValue();
      assertThat(onBoard.get("owner").asString()).isEqualTo(inRun.get("assignee").asString());
      assertThat(onBoard.get("result").asString()).isEqualTo(inRun.get("result").asString());
      List<String> dependencies = new ArrayList<>();
      onBoard.get("dependencies").forEach(id -> dependencies.add(keyOf.get(id.asLong())));
      List<String> planned = new ArrayList<>();
      inRun.get("dependencies").forEach(key -> planned.add(key.asString()));
      assertThat(dependencies).containsExactlyInAnyOrderElementsOf(planned);
    }
  }

  private static JsonNode export(JsonNode run) {
    return api.get(path(run) + "/export", ownerToken).ok();
  }

  private static Map<String, JsonNode> tasks(JsonNode run) {
    Map<String, JsonNode> tasks = new LinkedHashMap<>();
    run.get("tasks").forEach(task -> tasks.put(task.get("id").asString(), task));
    return tasks;
  }

  private static JsonNode jobOf(JsonNode export, String taskKey) {
    for (JsonNode job : export.get("jobs")) {
      if (taskKey.equals(job.path("task_id").asString(""))) {
        return job.get("job");
      }
    }
    throw new AssertionError("no job for " + taskKey);
  }

  /** Every task dispatched exactly once, counted from the run's jobs, each completed. */
  private static void assertOneJobPerTask(JsonNode export) {
    List<String> taskJobs = new ArrayList<>();
    List<String> roles = new ArrayList<>();
    for (JsonNode job : export.get("jobs")) {
      roles.add(job.get("role").asString());
      if (job.get("role").asString().equals("task")) {
        taskJobs.add(job.path("task_id").asString(""));
        assertThat(job.get("job").get("state").asString()).isEqualTo("completed");
      }
    }
    assertThat(taskJobs).containsExactlyInAnyOrderElementsOf(TASKS);
    assertThat(roles).filteredOn("plan"::equals).hasSize(1);
    assertThat(roles).filteredOn("synthesis"::equals).hasSize(1);
  }

  private static List<String> timelineKinds(JsonNode export) {
    List<String> kinds = new ArrayList<>();
    export.get("timeline").forEach(entry -> kinds.add(entry.get("kind").asString()));
    return kinds;
  }

  private static Instant latest(Map<String, Instant> times, String scenario, List<String> keys) {
    return keys.stream()
        .map(k -> times.get(scenario + ":" + k))
        .max(Instant::compareTo)
        .orElseThrow();
  }
}
