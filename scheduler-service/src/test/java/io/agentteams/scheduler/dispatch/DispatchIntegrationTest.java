package io.agentteams.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.test.MeterLabels;
import io.agentteams.platform.testidentity.TestIdentity;
import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.persistence.OfferStore;
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
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;

@SchedulerServiceTest
class DispatchIntegrationTest extends SchedulerIntegrationTest {

  final CallerTokens publicTokens = TestIdentity.jobMemberVerifier();
  @Autowired TransactionalOperator transactions;
  @Autowired OfferStore offerStore;
  @Autowired MeterRegistry meters;

  @Test
  void anOfferCarriesTheFrozenInputTheContextReferenceAndAMemberTokenForThatJob() {
    String ivy = unique("ivy");
    String agent = unique("agent");
    Teams.Team team = teams.create(ivy, Map.of("reader", agent, "other", unique("agent")));
    TestWorker worker = worker(ivy, agent, 20);
    UUID job = request(team, List.of("reader"), "Summarise chapter 3").get(0);

    Map<String, Object> offer = worker.nextOffer();
    assertThat(TestWorker.jobId(offer)).isEqualTo(job);
    assertThat(offer.get("input")).isEqualTo("Summarise chapter 3");
    assertThat(offer.get("member")).isEqualTo("reader");
    assertThat(offer.get("team_context")).isEqualTo("/api/v1/teams/" + team.id() + "/context");
    assertThat(offer.get("lease_ttl_seconds")).isEqualTo(20);
    assertThat(offer.get("reconcile")).isEqualTo(false);
    Caller memberToken = publicTokens.verify((String) offer.get("member_token"));
    assertThat(memberToken)
        .as("acting as the member within the job, under the first offer's lease")
        .isEqualTo(new Caller.Member(ivy, team.id(), "reader", job, 1));

    TestWorker stranger = new TestWorker(tokens, ivy, unique("agent"));
    assertThat(
            stranger
                .report(baseUrl(), job, "started", TestWorker.leaseToken(offer), Map.of())
                .status())
        .as("another agent's worker cannot see the job")
        .isEqualTo(404);
    web.get()
        .uri("/api/v1/agents/{agent}/jobs/stream", unique("agent"))
        .header(
            "Authorization",
            "Bearer " + tokens.issue(new Caller.Worker(ivy, agent), Duration.ofMinutes(1)))
        .exchange()
        .expectStatus()
        .isForbidden();
    TestWorker.Reply started =
        worker.report(
            baseUrl(), job, "started", TestWorker.leaseToken(offer), Map.of("run_id", "run-7"));
    assertThat(started.body().get("state")).isEqualTo("running");
    assertThat(publicTokens.verify((String) started.body().get("member_token")))
        .as("reports hand out a fresh member token while the job runs, under the same lease")
        .isEqualTo(new Caller.Member(ivy, team.id(), "reader", job, 1));
  }

  @Test
  void theStreamPollFindsExactlyTheAgentsWithAnOfferableJob() {
    String lena = unique("lena");
    String waiting = unique("agent");
    String idle = unique("agent");
    Teams.Team team = teams.create(lena, Map.of("reader", waiting, "other", idle));
    AgentKey waitingAgent = new AgentKey(lena, waiting);
    AgentKey idleAgent = new AgentKey(lena, idle);
    AgentKey stranger = new AgentKey(unique("nobody"), waiting);
    assertThat(
            offerStore.withWorkForStreams(List.of(waitingAgent, idleAgent)).collectList().block())
        .isEmpty();

    // No worker holds a stream: the admitted job waits for one to take its offer.
    UUID job = request(team, List.of("reader"), "Wait for me").get(0);
    await().atMost(Duration.ofSeconds(30)).until(() -> "admitted".equals(state(team, job)));

    assertThat(
            offerStore
                .withWorkForStreams(List.of(waitingAgent, idleAgent, stranger))
                .collectList()
                .block())
        .containsExactly(waitingAgent);
  }

  @Test
  void aWorkerThatStopsHeartbeatingLeadsToUnknownThenReconciliationFromItsOwnRecord() {
    String jack = unique("jack");
    String agent = unique("agent");
    Teams.Team team = teams.create(jack, Map.of("runner", agent, "other", unique("agent")));
    TestWorker worker = worker(jack, agent, 1);
    UUID job = request(team, List.of("runner"), "Crunch").get(0);
    Map<String, Object> offer = worker.nextOffer();
    String firstLease = TestWorker.leaseToken(offer);
    worker.report(baseUrl(), job, "started", firstLease, Map.of());
    Map<UUID, String> record = new HashMap<>(Map.of(job, "crunched: 17"));
    worker.disconnect();

    // No heartbeat comes: the lease lapses, the outcome is unknown and the slot stays held.
    await().atMost(Duration.ofSeconds(30)).until(() -> "unknown".equals(state(team, job)));
    assertThat(slotHeldBy(job)).isTrue();

    // The worker comes back (asking for longer leases) and is offered the job to reconcile.
    worker.connect(baseUrl(), 30);
    Map<String, Object> reoffer = worker.nextOffer();
    assertThat(TestWorker.jobId(reoffer)).isEqualTo(job);
    assertThat(reoffer.get("reconcile")).isEqualTo(true);
    String secondLease = TestWorker.leaseToken(reoffer);
    assertThat(secondLease).isNotEqualTo(firstLease);
    TestWorker.Reply stale = worker.report(baseUrl(), job, "heartbeat", firstLease, Map.of());
    assertThat(stale.status()).isEqualTo(409);
    assertThat(stale.code()).isEqualTo("stale-lease");

    // The worker answers from its own record instead of running the job again.
    TestWorker.Reply settled =
        worker.report(baseUrl(), job, "completed", secondLease, Map.of("answer", record.get(job)));
    assertThat(settled.body().get("state")).isEqualTo("completed");
    assertThat(slotHeldBy(job)).isFalse();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(events.states(job))
                    .containsExactly("queued", "admitted", "running", "unknown", "completed"));
    assertThat(((Map<?, ?>) job(team, job).get("result")).get("answer")).isEqualTo("crunched: 17");
  }

  @Test
  void anOfferLostInTransitIsOfferedAgainForReconciliationAndRunOnce() {
    String kate = unique("kate");
    String agent = unique("agent");
    Teams.Team team = teams.create(kate, Map.of("runner", agent, "other", unique("agent")));
    TestWorker lost = worker(kate, agent, 1);
    UUID job = request(team, List.of("runner"), "Once only").get(0);
    String lostLease = TestWorker.leaseToken(lost.nextOffer());
    lost.disconnect();

    await().atMost(Duration.ofSeconds(30)).until(() -> "unknown".equals(state(team, job)));
    TestWorker other = worker(kate, agent, 30);
    Map<String, Object> reoffer = other.nextOffer();
    assertThat(reoffer.get("reconcile")).isEqualTo(true);
    // This worker has no record of the job: it never ran, so it runs it now, once.
    String lease = TestWorker.leaseToken(reoffer);
    assertThat(other.report(baseUrl(), job, "started", lease, Map.of()).body().get("state"))
        .isEqualTo("running");
    assertThat(lost.report(baseUrl(), job, "started", lostLease, Map.of()).code())
        .isEqualTo("stale-lease");
    other.report(baseUrl(), job, "completed", lease, Map.of("answer", "done once"));
    assertThat(state(team, job)).isEqualTo("completed");
    assertThat(offers(job)).isEqualTo(2);
  }

  @Test
  void anOutcomeThatStaysUnknownIsFailedByTheTimeOutPolicyAndNeverMarkedCompleted() {
    String liam = unique("liam");
    String agent = unique("agent");
    Teams.Team team = teams.create(liam, Map.of("runner", agent, "other", unique("agent")));
    TestWorker worker = worker(liam, agent, 1);
    UUID job = request(team, List.of("runner"), "Vanish").get(0);
    String lease = TestWorker.leaseToken(worker.nextOffer());
    worker.report(baseUrl(), job, "started", lease, Map.of());
    worker.disconnect();
    await().atMost(Duration.ofSeconds(30)).until(() -> "unknown".equals(state(team, job)));
    assertThat(slotHeldBy(job)).isTrue();

    clock.advance(Duration.ofMinutes(16));
    await().atMost(Duration.ofSeconds(30)).until(() -> "failed".equals(state(team, job)));
    Map<?, ?> result = (Map<?, ?>) job(team, job).get("result");
    assertThat((String) result.get("error"))
        .startsWith("outcome unknown")
        .contains("without being run again");
    assertThat(slotHeldBy(job)).isFalse();
    TestWorker.Reply late =
        worker.report(baseUrl(), job, "completed", lease, Map.of("answer", "late"));
    assertThat(late.status()).isEqualTo(409);
    assertThat(late.code()).isEqualTo("job-finished");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(events.states(job))
                    .endsWith("unknown", "failed")
                    .doesNotContain("completed"));
  }

  @Test
  void chainAndTeamLimitsHoldWhileTheFirstJobIsStillRunning() {
    String mia = unique("mia");
    String leadAgent = unique("agent");
    String helperAgent = unique("agent");
    Teams.Team team =
        teams.create(
            mia,
            Map.of(
                "lead",
                leadAgent,
                "helper",
                helperAgent,
                "third",
                unique("agent"),
                "fourth",
                unique("agent")));
    TestWorker lead = worker(mia, leadAgent, 60);
    TestWorker helper = worker(mia, helperAgent, 60);
    UUID first = request(team, List.of("lead"), "Coordinate").get(0);
    Map<String, Object> leadOffer = lead.nextOffer();
    lead.report(baseUrl(), first, "started", TestWorker.leaseToken(leadOffer), Map.of());

    List<UUID> handoffs = new ArrayList<>();
    for (int i = 1; i <= 11; i++) {
      handoffs.add(handOff(team, "lead", first, "helper", "part " + i, "part-" + i, 201));
    }
    Map<?, ?> refused = handOffProblem(team, "lead", first, "helper", "part 12", "part-12", 422);
    assertThat(refused.get("limit")).isEqualTo("scheduler.chain-max-requests");
    assertThat(refused.get("max")).isEqualTo(12);
    assertThat(refused.get("actual")).isEqualTo(13);

    // A hand-off made while running a hand-off inherits the same, full chain.
    Map<String, Object> helperOffer = helper.nextOffer();
    UUID helperJob = TestWorker.jobId(helperOffer);
    assertThat(helperJob).isEqualTo(handoffs.get(0));
    helper.report(baseUrl(), helperJob, "started", TestWorker.leaseToken(helperOffer), Map.of());
    assertThat(
            handOffProblem(team, "helper", helperJob, "third", "deeper", "deeper-1", 422)
                .get("limit"))
        .isEqualTo("scheduler.chain-max-requests");
    // A member chat outside any job starts its own chain.
    handOff(team, "third", null, "fourth", "side question", "side-1", 201);

    // The team has 13 requests; owner requests fill it to 100, and the next is refused.
    for (int i = 0; i < 29; i++) {
      request(team, List.of("third", "fourth", "helper"), "bulk " + i);
    }
    Map<?, ?> teamFull =
        web.post()
            .uri("/api/v1/teams/{team}/requests", team.id())
            .header("Authorization", owner(mia))
            .bodyValue(Map.of("recipients", List.of("third"), "text", "one more"))
            .exchange()
            .expectStatus()
            .isEqualTo(422)
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    assertThat(teamFull.get("limit")).isEqualTo("scheduler.team-max-requests");
    assertThat(teamFull.get("actual")).isEqualTo(101);
    assertThat(handOffProblem(team, "third", null, "fourth", "another", "side-2", 422).get("limit"))
        .isEqualTo("scheduler.team-max-requests");

    // Receipts have their own room: the finished hand-off still returns its answer.
    helper.report(
        baseUrl(),
        helperJob,
        "completed",
        TestWorker.leaseToken(helperOffer),
        Map.of("answer", "part 1 done"));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> job(team, helperJob).get("receipt_job_id") != null);
    assertThat(state(team, first)).as("all of this while the first job runs").isEqualTo("running");
    assertThat(teamCount(team, "kind <> 'receipt'")).isEqualTo(100);
  }

  @Test
  void oneTeamsLongTransactionDoesNotStallAnotherTeamsAdmission() {
    String nina = unique("nina");
    String omar = unique("omar");
    Map<String, String> ninaMembers = new LinkedHashMap<>();
    for (int i = 0; i < 8; i++) {
      ninaMembers.put("m" + i, unique("agent"));
    }
    Teams.Team busy = teams.create(nina, ninaMembers);
    Teams.Team stuck =
        teams.create(omar, Map.of("solo", unique("agent"), "other", unique("agent")));
    List<UUID> ninaJobs = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      ninaJobs.add(request(busy, List.of("m" + i), "fill " + i).get(0));
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> ninaJobs.stream().allMatch(job -> "admitted".equals(state(busy, job))));
    // Omar takes the last slot, so his turn comes before Nina's when the next slot frees.
    UUID omarFirst = request(stuck, List.of("solo"), "takes the last slot").get(0);
    await().atMost(Duration.ofSeconds(30)).until(() -> "admitted".equals(state(stuck, omarFirst)));
    assertThat(heldSlots()).isEqualTo(8);
    UUID omarNext = request(stuck, List.of("other"), "waits behind a stuck transaction").get(0);
    UUID ninaNext = request(busy, List.of("m7"), "should not wait for omar").get(0);

    // Another transaction of Omar's team holds its outbox key and does not finish.
    Sinks.Empty<Void> release = Sinks.empty();
    Disposable held =
        transactions
            .transactional(
                db.sql("SELECT pg_advisory_xact_lock(:ns, hashtext(:team))")
                    .bind("ns", Outbox.KEY_LOCK_NAMESPACE)
                    .bind("team", stuck.id().toString())
                    .fetch()
                    .rowsUpdated()
                    .then(release.asMono()))
            .subscribe();
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> outboxKeyHeld(stuck.id()));
      cancel(busy, ninaJobs.get(0));
      await().atMost(Duration.ofSeconds(30)).until(() -> "admitted".equals(state(busy, ninaNext)));
      assertThat(state(stuck, omarNext)).isEqualTo("queued");
    } finally {
      release.tryEmitEmpty();
      held.dispose();
    }
    cancel(busy, ninaJobs.get(1));
    await().atMost(Duration.ofSeconds(30)).until(() -> "admitted".equals(state(stuck, omarNext)));
  }

  @Test
  void metricsShowQueueDepthOwnersWithABacklogSlotsAdmissionWaitLeaseExpiriesAndFairness() {
    String pia = unique("pia");
    String agent = unique("agent");
    Teams.Team team = teams.create(pia, Map.of("worker", agent, "other", unique("agent")));
    TestWorker worker = worker(pia, agent, 1);
    UUID first = request(team, List.of("worker"), "first").get(0);
    request(team, List.of("worker"), "waits behind the first");
    worker.nextOffer();
    worker.disconnect();
    await().atMost(Duration.ofSeconds(30)).until(() -> "unknown".equals(state(team, first)));

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              String metrics = prometheus();
              assertThat(metrics)
                  .containsPattern("agentteams_scheduler_queue_depth\\{[^}]*\\} [1-9]")
                  .containsPattern("agentteams_scheduler_queue_owners\\{[^}]*\\} [1-9]")
                  .containsPattern("agentteams_scheduler_queue_depth_max\\{[^}]*\\} [1-9]")
                  .doesNotContain(pia)
                  .contains("agentteams_scheduler_slots_active")
                  .contains("agentteams_scheduler_slots_capacity")
                  .contains("agentteams_scheduler_admission_wait_seconds_count")
                  .contains("agentteams_scheduler_fairness")
                  .contains("agentteams_scheduler_jobs_waiting_input")
                  .containsPattern("agentteams_scheduler_queue_oldest_seconds\\{[^}]*\\} [0-9]")
                  .containsPattern("agentteams_scheduler_lease_expiries_total\\{[^}]*\\} [1-9]");
            });
    // After queueing, offers, a lease expiry and hand-offs, no meter is labelled with an id.
    MeterLabels.assertBounded(meters);
  }

  private String prometheus() {
    // Read the page whole, as the operator page does, not within the client's 256 KB default.
    return web.mutate()
        .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(16 * 1024 * 1024))
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

  private UUID handOff(
      Teams.Team team,
      String from,
      UUID executing,
      String to,
      String text,
      String key,
      int status) {
    Map<?, ?> body = handOffProblem(team, from, executing, to, text, key, status);
    return UUID.fromString((String) ((Map<?, ?>) ((List<?>) body.get("jobs")).get(0)).get("id"));
  }

  private Map<?, ?> handOffProblem(
      Teams.Team team,
      String from,
      UUID executing,
      String to,
      String text,
      String key,
      int status) {
    return web.post()
        .uri("/api/v1/teams/{team}/requests", team.id())
        .header("Authorization", member(team, from, executing))
        .bodyValue(Map.of("recipients", List.of(to), "text", text, "idempotency_key", key))
        .exchange()
        .expectStatus()
        .isEqualTo(status)
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private void cancel(Teams.Team team, UUID job) {
    web.post()
        .uri("/api/v1/jobs/{id}/cancel", job)
        .header("Authorization", owner(team.ownerId()))
        .exchange()
        .expectStatus()
        .isOk();
  }

  private boolean slotHeldBy(UUID job) {
    return count("SELECT count(*) AS n FROM admission_slot WHERE job_id = :id", job) == 1;
  }

  private int offers(UUID job) {
    return (int) count("SELECT offers AS n FROM job WHERE id = :id", job);
  }

  private long heldSlots() {
    return db.sql("SELECT count(*) AS n FROM admission_slot WHERE job_id IS NOT NULL")
        .map(row -> row.get("n", Number.class).longValue())
        .one()
        .block();
  }

  private long teamCount(Teams.Team team, String condition) {
    return db.sql("SELECT count(*) AS n FROM job WHERE team_id = :id AND " + condition)
        .bind("id", team.id())
        .map(row -> row.get("n", Number.class).longValue())
        .one()
        .block();
  }

  private boolean outboxKeyHeld(UUID team) {
    return db.sql(
                "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted"
                    + " AND classid = :ns AND objid = hashtext(:team)::oid")
            .bind("ns", Outbox.KEY_LOCK_NAMESPACE)
            .bind("team", team.toString())
            .map(row -> row.get("n", Number.class).longValue())
            .one()
            .block()
        > 0;
  }

  private long count(String sql, UUID id) {
    return db.sql(sql)
        .bind("id", id)
        .map(row -> row.get("n", Number.class).longValue())
        .one()
        .block();
  }
}
