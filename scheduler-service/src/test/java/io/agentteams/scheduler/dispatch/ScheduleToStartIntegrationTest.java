package io.agentteams.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import io.agentteams.scheduler.support.TestWorker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Schedule-to-start: admitted jobs whose offer no worker takes give their slots back after the
 * offer time-out (the test clock jumps past it), other owners' work is admitted meanwhile, and the
 * waiting jobs run once, in their places, when a worker connects. Also the worker's side of the
 * stream: a worker is offered no more jobs than it asked for, and a job it gives back is offered
 * again (or reconciled, once started) naming the worker that held it.
 */
@SchedulerServiceTest
class ScheduleToStartIntegrationTest extends SchedulerIntegrationTest {

  @Autowired MeterRegistry meters;

  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final Duration PAST_OFFER_TIMEOUT = Duration.ofSeconds(61);
  private static final int SLOTS = 8;

  @Test
  void jobsNoWorkerTakesGiveTheirSlotsBackKeepTheirPlacesAndRunOnceWhenAWorkerConnects() {
    String ada = unique("ada");
    String offline = unique("offline");
    Map<String, String> members = new LinkedHashMap<>();
    for (int i = 1; i <= SLOTS; i++) {
      members.put("m" + i, offline);
    }
    Teams.Team idle = teams.create(ada, members);
    List<UUID> firsts = new ArrayList<>();
    for (String member : members.keySet()) {
      firsts.add(request(idle, List.of(member), "first for " + member).get(0));
    }
    UUID second = request(idle, List.of("m1"), "second for m1").get(0);
    await()
        .atMost(PATIENCE)
        .until(() -> firsts.stream().allMatch(job -> "admitted".equals(state(idle, job))));
    Map<UUID, Long> positions = new HashMap<>();
    firsts.forEach(job -> positions.put(job, queuePosition(job)));

    // Another owner's job finds every slot held by jobs nobody takes.
    String bea = unique("bea");
    String online = unique("online");
    Teams.Team busy = teams.create(bea, Map.of("w", online, "other", unique("agent")));
    TestWorker beasWorker = worker(bea, online, 30);
    UUID beasJob = request(busy, List.of("w"), "needs a slot").get(0);
    assertThat(state(busy, beasJob)).isEqualTo("queued");
    assertThat(beasWorker.pollOffer()).isEmpty();

    clock.advance(PAST_OFFER_TIMEOUT);

    // The untaken jobs give their slots back; the other owner's job is admitted and runs.
    Map<String, Object> beasOffer = beasWorker.nextOffer();
    assertThat(TestWorker.jobId(beasOffer)).isEqualTo(beasJob);
    beasWorker.report(baseUrl(), beasJob, "completed", TestWorker.leaseToken(beasOffer), Map.of());
    assertThat(state(busy, beasJob)).isEqualTo("completed");
    await()
        .atMost(PATIENCE)
        .until(() -> firsts.stream().allMatch(job -> "waiting_worker".equals(state(idle, job))));
    for (UUID job : firsts) {
      assertThat(slotHeldBy(job)).isFalse();
      assertThat(queuePosition(job)).as("keeps its place").isEqualTo(positions.get(job));
      assertThat(job(idle, job).get("waiting_reason"))
          .asString()
          .startsWith("no worker connected")
          .contains(offline);
    }
    assertThat(state(idle, second))
        .as("the waiting job still holds its conversation")
        .isEqualTo("queued");

    // A worker connects: every waiting job runs once, then the conversation's next one.
    TestWorker adasWorker = worker(ada, offline, 30, "ada-worker-1", SLOTS);
    List<UUID> offered = new ArrayList<>();
    for (int i = 0; i < SLOTS; i++) {
      Map<String, Object> offer = adasWorker.nextOffer();
      assertThat(offer.get("reconcile")).isEqualTo(false);
      assertThat(offer.get("offer")).isEqualTo(1);
      assertThat(offer.get("worker_id")).isEqualTo("ada-worker-1");
      UUID job = TestWorker.jobId(offer);
      offered.add(job);
      String lease = TestWorker.leaseToken(offer);
      adasWorker.report(baseUrl(), job, "started", lease, Map.of());
      adasWorker.report(baseUrl(), job, "completed", lease, Map.of("answer", "done " + job));
    }
    assertThat(offered).containsExactlyInAnyOrderElementsOf(firsts);
    Map<String, Object> next = adasWorker.nextOffer();
    assertThat(TestWorker.jobId(next)).isEqualTo(second);
    adasWorker.report(baseUrl(), second, "completed", TestWorker.leaseToken(next), Map.of());
    for (UUID job : firsts) {
      assertThat(offers(job)).as("offered once, run once").isEqualTo(1);
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(events.states(job))
                      .containsExactly(
                          "queued",
                          "admitted",
                          "waiting_worker",
                          "queued",
                          "admitted",
                          "running",
                          "completed"));
    }
  }

  @Test
  void aJobOfAPullAgentWithNoWorkerConnectedWaitsForOneAtOnceAndRunsWhenOneConnects() {
    String una = unique("una");
    String agent = unique("agent");
    teams.pullAgent(una, agent);
    Teams.Team team = teams.create(una, Map.of("one", agent, "two", unique("agent")));

    UUID job = request(team, List.of("one"), "Anyone there?").get(0);

    // Without the clock moving past the offer time-out: it does not show as starting meanwhile.
    Map<?, ?> waiting =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> job(team, job), j -> "waiting_worker".equals(j.get("state")));
    assertThat((String) waiting.get("waiting_reason")).startsWith("no worker connected");
    TestWorker worker = worker(una, agent, 30);
    assertThat(TestWorker.jobId(worker.nextOffer())).isEqualTo(job);
  }

  @Test
  void aWorkerIsOfferedNoMoreJobsThanItAskedForAndTheNextAsSoonAsOneEnds() {
    String cal = unique("cal");
    String agent = unique("agent");
    Teams.Team team =
        teams.create(cal, Map.of("a", agent, "b", agent, "c", agent, "d", unique("other")));
    TestWorker worker = worker(cal, agent, 30, "cal-worker", 2);
    List<UUID> jobs = new ArrayList<>();
    for (String member : List.of("a", "b", "c")) {
      jobs.add(request(team, List.of(member), "job for " + member).get(0));
    }
    Map<String, Object> first = worker.nextOffer();
    worker.nextOffer();
    await()
        .atMost(PATIENCE)
        .until(() -> jobs.stream().allMatch(job -> !"queued".equals(state(team, job))));
    // The third job is admitted but stays untaken while the worker holds two leases.
    await()
        .during(Duration.ofSeconds(2))
        .atMost(PATIENCE)
        .until(() -> worker.received().size() == 2);

    worker.report(
        baseUrl(), TestWorker.jobId(first), "completed", TestWorker.leaseToken(first), Map.of());
    Map<String, Object> third = worker.nextOffer();
    assertThat(jobs).contains(TestWorker.jobId(third));
    assertThat(worker.received()).extracting(TestWorker::jobId).doesNotHaveDuplicates();
  }

  @Test
  void aJobGivenBackBeforeItStartedIsOfferedAgainAndOnceStartedIsReconciledNamingTheWorker() {
    String dan = unique("dan");
    String agent = unique("agent");
    Teams.Team team = teams.create(dan, Map.of("x", agent, "y", unique("other")));
    TestWorker worker = worker(dan, agent, 30, "leaving", 1);
    UUID job = request(team, List.of("x"), "Give me back").get(0);

    Map<String, Object> offer = worker.nextOffer();
    TestWorker.Reply released =
        worker.report(baseUrl(), job, "released", TestWorker.leaseToken(offer), Map.of());
    assertThat(released.body().get("state")).isEqualTo("admitted");
    Map<String, Object> again = worker.nextOffer();
    assertThat(TestWorker.jobId(again)).isEqualTo(job);
    assertThat(again.get("reconcile")).as("never started: a plain offer").isEqualTo(false);
    assertThat(again.get("offer")).isEqualTo(2);
    assertThat(again.get("previously_started")).isEqualTo(false);

    String lease = TestWorker.leaseToken(again);
    worker.report(baseUrl(), job, "started", lease, Map.of());
    double open = openStreams();
    worker.disconnect();
    // Given back only once its stream is gone, so the reconciliation goes to the next worker.
    await().atMost(PATIENCE).until(() -> openStreams() < open);
    assertThat(worker.report(baseUrl(), job, "released", lease, Map.of()).body().get("state"))
        .isEqualTo("unknown");

    TestWorker reconciling = worker(dan, agent, 30, "reconciling", 1);
    Map<String, Object> reconcile = reconciling.nextOffer();
    assertThat(reconcile.get("reconcile")).isEqualTo(true);
    assertThat(reconcile.get("previous_worker_id")).isEqualTo("leaving");
    assertThat(reconcile.get("previously_started")).isEqualTo(true);
    reconciling.report(
        baseUrl(),
        job,
        "completed",
        TestWorker.leaseToken(reconcile),
        Map.of("answer", "settled from the record of the worker that had it"));
    assertThat(state(team, job)).isEqualTo("completed");
    assertThat(offers(job)).isEqualTo(3);
  }

  private double openStreams() {
    return meters.get("agentteams.scheduler.streams.open").gauge().value();
  }

  private long queuePosition(UUID job) {
    return count("SELECT queue_position AS n FROM job WHERE id = :id", job);
  }

  private boolean slotHeldBy(UUID job) {
    return count("SELECT count(*) AS n FROM admission_slot WHERE job_id = :id", job) == 1;
  }

  private int offers(UUID job) {
    return (int) count("SELECT offers AS n FROM job WHERE id = :id", job);
  }

  private long count(String sql, UUID job) {
    return db.sql(sql)
        .bind("id", job)
        .map(row -> row.get("n", Number.class).longValue())
        .one()
        .block();
  }
}
