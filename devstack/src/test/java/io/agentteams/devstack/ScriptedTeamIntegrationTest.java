package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import io.agentteams.agents.scripted.Script;
import io.agentteams.agents.scripted.ScriptedTeam;
import io.agentteams.agents.scripted.Step;
import io.agentteams.devstack.support.RecordingListener;
import io.agentteams.devstack.support.Sdk;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.jobs.Activity;
import io.agentteams.sdk.jobs.Job;
import io.agentteams.sdk.jobs.NewRequest;
import io.agentteams.sdk.messages.HistoryPage;
import io.agentteams.sdk.messages.Search;
import io.agentteams.sdk.state.StateEntry;
import io.agentteams.sdk.state.StateQuery;
import io.agentteams.sdk.streams.EventSubscription;
import io.agentteams.sdk.streams.ServerSentEvent;
import io.agentteams.sdk.tasks.Task;
import io.agentteams.sdk.teams.Team;
import io.agentteams.sdk.worker.AgentWorker;
import io.agentteams.sdk.worker.JobOffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The scripted reference agents as SDK workers, through the gateway alone: the lead imports a plan,
 * each member claims, heartbeats and completes its task in dependency order, publishes to the
 * public state, messages and hands the work on; each hand-off's answer returns to the member that
 * asked as a receipt; the writer's question waits for the owner and its answer resumes the job.
 * Then a worker is killed in the middle of a job: its lease lapses and the job is reconciled by the
 * next worker, which continues it without doing anything twice.
 */
@RealInfrastructure
class ScriptedTeamIntegrationTest {

  private static final Duration PATIENCE = Sdk.PATIENCE;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void scriptedMembersPlanHandOffAskTheOwnerAndCompleteTheBoardInDependencyOrder() {
    AgentTeamsClient owner = Sdk.owner(Sdk.unique("sam"));
    ScriptedTeam script = ScriptedTeam.launchBrief(11, Duration.ZERO);
    Sdk.agents(owner, ScriptedTeam.MEMBERS);
    Team team = Sdk.readyTeam(owner, script.newTeam("Brief", Function.identity()));
    List<String> stream = new CopyOnWriteArrayList<>();
    Map<String, RecordingListener> heard = new LinkedHashMap<>();
    List<AgentWorker> workers = new ArrayList<>();
    try (EventSubscription events =
        owner.streams().team(team.id(), null, event -> stream.add(event.event()))) {
      for (String member : ScriptedTeam.MEMBERS) {
        RecordingListener listener = new RecordingListener();
        heard.put(member, listener);
        workers.add(
            Sdk.worker(owner, member, script.agent(member)).maxJobs(2).listener(listener).start());
      }
      Job kickoff =
          owner
              .jobs()
              .request(team.id(), NewRequest.to("lead", script.kickoff(), "kickoff-1"))
              .job();

      // The writer stops with its question; its task is ready, not yet claimed.
      Job question =
          await()
              .atMost(PATIENCE)
              .until(
                  () -> job(owner, team, "writer"),
                  writer -> writer.isPresent() && writer.get().waitingForAnswer())
              .orElseThrow();
      assertThat(question.question().text()).isEqualTo(ScriptedTeam.QUESTION);
      assertThat(task(owner, team, "write").status()).isEqualTo("ready");
      assertThat(task(owner, team, "review").status()).isEqualTo("completed");

      owner.jobs().answer(question.id(), "casual");

      Activity done =
          await()
              .atMost(PATIENCE)
              .until(
                  () -> owner.jobs().activity(team.id(), null, null),
                  activity -> allFinished(activity) && activity.items().size() == 4);
      assertThat(done.items())
          .allSatisfy(item -> assertThat(item.request().state()).isEqualTo("completed"));
      assertThat(owner.jobs().get(kickoff.id()).result().answer()).startsWith("Plan imported");

      // The plan: three tasks with dependencies, each completed by the member that claimed it, in
      // dependency order.
      Task research = task(owner, team, "research");
      Task review = task(owner, team, "review");
      Task write = task(owner, team, "write");
      assertThat(research.dependencies()).isEmpty();
      assertThat(review.dependencies()).containsExactly(research.id());
      assertThat(write.dependencies()).containsExactly(review.id());
      assertThat(List.of(research, review, write))
          .allSatisfy(
              t -> {
                assertThat(t.status()).isEqualTo("completed");
                assertThat(t.createdBy()).isEqualTo("lead");
                assertThat(t.planId()).isEqualTo(research.planId());
                assertThat(t.heartbeatCount()).isPositive();
              });
      assertThat(research.owner()).isEqualTo("researcher");
      assertThat(review.owner()).isEqualTo("reviewer");
      assertThat(write.owner()).isEqualTo("writer");
      assertThat(review.claimedAt()).isAfterOrEqualTo(research.updatedAt());
      assertThat(write.claimedAt()).isAfterOrEqualTo(review.updatedAt());

      // Every hand-off's answer came back to the member that asked, in its own conversation, as a
      // later turn (a job of its own, offered to that member's worker).
      List<Activity.Item> handOffs =
          done.items().stream().filter(i -> i.request().kind().equals("handoff")).toList();
      assertThat(handOffs)
          .extracting(i -> i.request().requester() + "->" + i.request().member())
          .containsExactlyInAnyOrder(
              "lead->researcher", "researcher->reviewer", "reviewer->writer");
      for (Activity.Item handOff : handOffs) {
        Job receipt = handOff.receipt();
        assertThat(receipt).isNotNull();
        assertThat(receipt.state()).isEqualTo("completed");
        String requester = handOff.request().requester();
        assertThat(receipt.member()).isEqualTo(requester);
        assertThat(receipt.conversationId())
            .isEqualTo(team.member(requester).orElseThrow().conversationId());
        assertThat(receipt.input()).isEqualTo(handOff.request().result().answer());
        assertThat(heard.get(requester).offers(receipt.id()))
            .extracting(JobOffer::kind, JobOffer::parentJobId)
            .containsExactly(tuple("receipt", handOff.request().id()));
      }
      assertThat(owner.jobs().get(receiptOf(handOffs, "lead").id()).result().answer())
          .startsWith("Noted the research: ")
          .contains(script.values().get("audience"));

      // The owner's answer resumed the writer's job: asked once, offered again with the answer.
      Job writer = owner.jobs().get(question.id());
      assertThat(writer.answer().text()).isEqualTo("casual");
      assertThat(writer.result().answer())
          .isEqualTo(script.fill("Brief: {product} for {audience} - {need}. Tone: casual."));
      assertThat(heard.get("writer").offers(question.id()))
          .extracting(o -> o.resume() == null ? null : o.resume().answer())
          .containsExactly(null, "casual");

      // State entries attributed to their authors, stamped by the service.
      Map<String, String> authors = new LinkedHashMap<>();
      for (StateEntry entry : owner.state().read(team.id(), StateQuery.ALL).entries()) {
        authors.put(entry.kind() + ":" + entry.title(), entry.createdBy());
      }
      assertThat(authors)
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(
                  "objective:Objective", "lead",
                  "plan:Plan", "lead",
                  "finding:Audience", "researcher",
                  "requirement:Review notes", "reviewer",
                  "finding:Brief", "writer"));
      StateEntry plan = owner.state().read(team.id(), StateQuery.ofKind("plan")).entries().get(0);
      assertThat(plan.updatedBy()).as("the lead updated its plan on the receipt").isEqualTo("lead");
      assertThat(plan.revision()).isGreaterThan(1);

      // Messages and broadcasts went through the mailbox.
      HistoryPage history =
          owner.mailbox().history(team.id(), new Search(null, null, null, 20, null));
      assertThat(history.records())
          .extracting(r -> r.kind() + ":" + r.sender())
          .contains("broadcast:lead", "direct:lead", "direct:researcher", "broadcast:writer");
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(stream)
                      .contains(
                          "PlanImported",
                          "TaskClaimed",
                          "TaskCompleted",
                          "TeamStatePublished",
                          "MessageQueued",
                          "JobInputRequired"));
      heard
          .values()
          .forEach(
              listener ->
                  assertThat(listener.failedReports())
                      .as("no report was refused or given up")
                      .noneMatch(f -> !f.retrying()));
    } finally {
      workers.forEach(AgentWorker::close);
      Sdk.cancelUnfinished(owner, team.id());
    }
  }

  @Test
  void aWorkerKilledMidJobLeavesItsLeaseToLapseAndTheNextWorkerReconcilesItWithoutRepeatingIt()
      throws Exception {
    AgentTeamsClient owner = Sdk.owner(Sdk.unique("kim"));
    CountDownLatch reached = new CountDownLatch(1);
    AtomicBoolean firstRun = new AtomicBoolean(true);
    // Right after the researcher published its finding, its first run stops dead.
    Step gate =
        turn -> {
          if (firstRun.getAndSet(false)) {
            reached.countDown();
            new CountDownLatch(1).await();
          }
          return Optional.empty();
        };
    ScriptedTeam base = ScriptedTeam.launchBrief(12, Duration.ZERO);
    Script researcher = base.scripts().get("researcher");
    int afterPublish =
        researcher.onWork().stream().map(Object::toString).toList().indexOf("publish finding") + 1;
    ScriptedTeam script = base.with("researcher", researcher.withWorkStep(afterPublish, gate));
    Sdk.agents(owner, ScriptedTeam.MEMBERS);
    Team team = Sdk.readyTeam(owner, script.newTeam("Brief", Function.identity()));
    List<AgentWorker> workers = new ArrayList<>();
    List<JsonNode> jobEvents = new CopyOnWriteArrayList<>();
    try (EventSubscription events =
        owner
            .streams()
            .team(
                team.id(),
                null,
                (ServerSentEvent event) -> {
                  if (event.event().equals("JobStateChanged")) {
                    jobEvents.add(JSON.readTree(event.data()).get("data"));
                  }
                })) {
      for (String member : List.of("lead", "reviewer", "writer")) {
        workers.add(Sdk.worker(owner, member, script.agent(member)).start());
      }
      AgentWorker doomed =
          Sdk.worker(owner, "researcher", script.agent("researcher")).leaseSeconds(2).start();
      owner.jobs().request(team.id(), NewRequest.to("lead", script.kickoff(), "kickoff-2"));
      assertThat(reached.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
      Job research = job(owner, team, "researcher").orElseThrow();

      doomed.abort();

      // No heartbeat comes: the lease lapses and the outcome is unknown (the slot stays held).
      await()
          .atMost(PATIENCE)
          .until(() -> owner.jobs().get(research.id()).state(), "unknown"::equals);

      RecordingListener heard = new RecordingListener();
      AgentWorker next =
          Sdk.worker(owner, "researcher", script.agent("researcher")).listener(heard).start();
      workers.add(next);
      Job settled =
          await().atMost(PATIENCE).until(() -> owner.jobs().get(research.id()), Job::finished);

      assertThat(settled.state()).isEqualTo("completed");
      assertThat(settled.result().answer()).startsWith("Research done: ");
      JobOffer reconcile = heard.offers(research.id()).get(0);
      assertThat(reconcile.reconcile()).isTrue();
      assertThat(reconcile.previousWorkerId()).isEqualTo(doomed.workerId());
      assertThat(reconcile.offer()).isEqualTo(2);
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(statesOf(jobEvents, research.id()))
                      .containsSubsequence("running", "unknown", "running", "completed"));

      // The second run continued the first: nothing the first did was done again.
      List<StateEntry> findings =
          owner.state().read(team.id(), StateQuery.ofKind("finding")).entries();
      assertThat(findings)
          .filteredOn(e -> e.title().equals("Audience"))
          .singleElement()
          .satisfies(e -> assertThat(e.createdBy()).isEqualTo("researcher"));
      Task task = task(owner, team, "research");
      assertThat(task.status()).isEqualTo("completed");
      assertThat(task.owner()).isEqualTo("researcher");
      Activity activity =
          await()
              .atMost(PATIENCE)
              .until(
                  () -> owner.jobs().activity(team.id(), null, null),
                  a ->
                      a.items().stream()
                          .anyMatch(i -> i.request().requester().equals("researcher")));
      assertThat(activity.items())
          .filteredOn(i -> i.request().requester().equals("researcher"))
          .as("one hand-off to the reviewer, not two")
          .hasSize(1);
      HistoryPage directs =
          owner.mailbox().history(team.id(), new Search("researcher", null, "findings", 20, null));
      assertThat(directs.records()).hasSize(1);
    } finally {
      workers.forEach(AgentWorker::close);
      Sdk.cancelUnfinished(owner, team.id());
    }
  }

  private static List<String> statesOf(List<JsonNode> events, UUID jobId) {
    List<String> states = new ArrayList<>();
    for (JsonNode event : events) {
      if (event.get("job_id").asString().equals(jobId.toString())) {
        states.add(event.get("state").asString());
      }
    }
    return states;
  }

  private static Optional<Job> job(AgentTeamsClient owner, Team team, String member) {
    return owner.jobs().activity(team.id(), null, null).items().stream()
        .map(Activity.Item::request)
        .filter(job -> job.member().equals(member))
        .findFirst();
  }

  private static Job receiptOf(List<Activity.Item> handOffs, String requester) {
    return handOffs.stream()
        .filter(i -> i.request().requester().equals(requester))
        .map(Activity.Item::receipt)
        .findFirst()
        .orElseThrow();
  }

  private static Task task(AgentTeamsClient owner, Team team, String planKey) {
    return owner.tasks().list(team.id()).stream()
        .filter(t -> planKey.equals(t.planKey()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no task " + planKey));
  }

  private static boolean allFinished(Activity activity) {
    return activity.items().stream()
        .allMatch(
            item ->
                item.request().finished()
                    && (item.request().kind().equals("request")
                        || (item.receipt() != null && item.receipt().finished())));
  }
}
