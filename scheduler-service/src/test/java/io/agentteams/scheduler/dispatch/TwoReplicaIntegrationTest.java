package io.agentteams.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.test.Database;
import io.agentteams.platform.test.TestInfrastructure;
import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.budget.BudgetProperties;
import io.agentteams.scheduler.support.ReplicaProcess;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import io.agentteams.scheduler.support.TestWorker;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Two replicas on one database: this test's own context and a second scheduler-service in its own
 * JVM, which one test kills with SIGKILL in the middle of dispatching and starts again.
 */
@SchedulerServiceTest
class TwoReplicaIntegrationTest extends SchedulerIntegrationTest {

  private static final int SLOTS = 8;
  private static final ParameterizedTypeReference<ServerSentEvent<Map<String, Object>>> EVENTS =
      new ParameterizedTypeReference<>() {};

  @Autowired private BudgetProperties budgets;

  private Database database;
  private ReplicaProcess other;

  @BeforeAll
  void startTheOtherReplica() {
    database = TestInfrastructure.shared().database("scheduler");
    other =
        ReplicaProcess.start(
            "replica-other",
            database,
            TestInfrastructure.shared().kafkaBootstrapServers(),
            Map.of(
                "agentteams.scheduler.dispatch.sweep-interval", "200ms",
                "agentteams.scheduler.dispatch.poll-interval", "500ms",
                "agentteams.scheduler.admission.poll-interval", "500ms",
                "agentteams.outbox.poll-interval", "200ms"));
  }

  @AfterAll
  void stopTheOtherReplica() {
    other.close();
  }

  @Test
  void twoReplicasAdmitFiveHundredJobsNeverMoreThanTheSlotsAtOnceAndNoneTwice() throws Exception {
    Map<UUID, String> deliveredBy = new ConcurrentHashMap<>();
    Map<UUID, AtomicInteger> runs = new ConcurrentHashMap<>();
    List<Teams.Team> fleet = new ArrayList<>();
    List<String[]> agents = new ArrayList<>();
    for (int o = 0; o < 5; o++) {
      String owner = unique("owner" + o);
      String agent = unique("agent");
      fleet.add(teams.create(owner, Map.of("a", agent, "b", agent, "c", agent, "d", agent)));
      agents.add(new String[] {owner, agent});
    }
    ActiveSampler sampler = new ActiveSampler(database);
    List<Disposable> workers = new ArrayList<>();
    try {
      // Queue everything first; the first eight jobs are admitted at once and wait for workers.
      List<UUID> jobs = new ArrayList<>();
      for (int round = 0; round < 25; round++) {
        for (Teams.Team team : fleet) {
          jobs.addAll(request(team, List.of("a", "b", "c", "d"), "job " + round));
        }
      }
      assertThat(jobs).hasSize(500);
      long started = System.nanoTime();
      // Each owner's agent has a worker stream on each replica.
      for (String[] agent : agents) {
        workers.add(work(agent[0], agent[1], baseUrl(), "replica-main", deliveredBy, runs));
        workers.add(work(agent[0], agent[1], other.baseUrl(), "replica-other", deliveredBy, runs));
      }
      await().atMost(Duration.ofMinutes(4)).until(() -> count("state = 'completed'", fleet) == 500);
      System.out.printf(
          "500 jobs through two replicas in %d ms, mean active %.2f%n",
          (System.nanoTime() - started) / 1_000_000, sampler.meanActive());
    } finally {
      sampler.stop();
      workers.forEach(Disposable::dispose);
    }

    assertThat(sampler.maxActive()).as("jobs holding a slot at once").isBetween(2, SLOTS);
    assertThat(sampler.maxSlotsHeld()).isLessThanOrEqualTo(SLOTS);
    assertThat(count("offers <> 1", fleet)).as("jobs offered other than once").isZero();
    assertThat(runs.values().stream().filter(n -> n.get() != 1).count()).isZero();
    assertThat(runs).hasSize(500);
    Map<String, Long> admittedBy = admittedBy(fleet);
    assertThat(admittedBy.keySet())
        .as("both replicas admitted")
        .contains("replica-main", "replica-other");
    long crossed =
        deliveredBy.entrySet().stream()
            .filter(e -> !e.getValue().equals(admittedByOf(e.getKey())))
            .count();
    assertThat(crossed)
        .as("jobs a replica admitted and a stream on the other replica delivered")
        .isPositive();
    List<UUID> all = allJobs(fleet);
    long waitingForEvents = System.nanoTime();
    await()
        .atMost(Duration.ofMinutes(2))
        .untilAsserted(
            () -> {
              for (UUID job : all) {
                assertThat(withoutWaitsForAWorker(events.states(job)))
                    .as("events of %s", job)
                    .containsExactly("queued", "admitted", "running", "completed");
              }
            });
    // Admitted once, or once more for each time no worker took it in time (queueing 500 jobs
    // before any worker connects can take longer than the schedule-to-start time-out on a loaded
    // machine): it then gave its slot back unoffered and was admitted again, never offered twice.
    Map<UUID, Integer> admissions = admissions(fleet);
    long waited = all.stream().filter(job -> waitsForAWorker(job) > 0).count();
    assertThat(all)
        .as("jobs admitted other than once per wait for a worker")
        .allSatisfy(
            job -> assertThat(admissions.get(job).longValue()).isEqualTo(1 + waitsForAWorker(job)));
    System.out.printf(
        "events checked after %d ms; %d delivered across replicas; %d waited for a worker%n",
        (System.nanoTime() - waitingForEvents) / 1_000_000, crossed, waited);
  }

  @Test
  void aWorkerOnOneReplicaIsConnectedOnBothAndAnInterruptMadeOnTheOtherReachesIt() {
    String owner = unique("una");
    String agent = unique("agent");
    Teams.Team team = teams.create(owner, Map.of("lead", unique("agent"), "a", agent), "lead");
    TestWorker worker = new TestWorker(tokens, owner, agent).connect(other.baseUrl(), 30);
    try {
      assertThat(presence(baseUrl(), owner, agent).get("connected")).isEqualTo(true);
      assertThat(presence(other.baseUrl(), owner, agent).get("connected")).isEqualTo(true);
      UUID job = request(team, List.of("a"), "The long one").get(0);
      Map<String, Object> offer = worker.nextOffer();
      worker.report(other.baseUrl(), job, "started", TestWorker.leaseToken(offer), Map.of());

      // The lead interrupts through this replica; the worker's stream is held by the other.
      web.post()
          .uri("/api/v1/teams/{team}/jobs/{job}/interrupt", team.id(), job)
          .header("Authorization", member(team, "lead", null))
          .exchange()
          .expectStatus()
          .isOk();
      await().atMost(Duration.ofSeconds(30)).until(() -> worker.interrupts().contains(job));

      worker.disconnect();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Boolean.FALSE.equals(presence(baseUrl(), owner, agent).get("connected")));
    } finally {
      worker.close();
    }
  }

  private Map<String, Object> presence(String replica, String ownerId, String agentId) {
    return WebClient.create(replica)
        .get()
        .uri("/api/v1/agents/{agent}/worker", agentId)
        .header("Authorization", owner(ownerId))
        .retrieve()
        .bodyToMono(new ParameterizedTypeReference<Map<String, Object>>() {})
        .block(Duration.ofSeconds(30));
  }

  @Test
  void aReplicaKilledMidDispatchAndStartedAgainLosesNothingAndDuplicatesNothing() {
    String owner = unique("quinn");
    String agent = unique("agent");
    Teams.Team team = teams.create(owner, Map.of("a", agent, "b", agent, "c", agent, "d", agent));
    RecordingWorker worker = new RecordingWorker(tokens, owner, agent, other.baseUrl(), baseUrl());
    worker.start();
    try {
      List<UUID> jobs = new ArrayList<>();
      for (int round = 0; round < 15; round++) {
        jobs.addAll(request(team, List.of("a", "b", "c", "d"), "step " + round));
      }
      await().atMost(Duration.ofMinutes(2)).until(() -> worker.completed() >= 15);

      int completedAtKill = worker.completed();
      other.kill();
      int beforeRestart = worker.offersReceived();
      other.restart();
      await()
          .atMost(Duration.ofMinutes(3))
          .until(() -> count("state = 'completed'", List.of(team)) == 60);

      System.out.printf(
          "killed after %d completions and %d offers; %d offers in all, %d to reconcile%n",
          completedAtKill, beforeRestart, worker.offersReceived(), worker.reconciliations.get());
      assertThat(worker.offersReceived())
          .as("the restarted replica went on dispatching")
          .isGreaterThan(beforeRestart);
      assertThat(worker.runs()).as("every job ran").hasSize(60);
      assertThat(worker.runs().values()).as("no job ran twice").allMatch(n -> n == 1);
      assertThat(count("state <> 'completed'", List.of(team))).isZero();
      assertThat(count("admissions <> 1", List.of(team))).isZero();
      assertThat(
              db.sql(
                      "SELECT count(*) AS n FROM admission_slot s JOIN job j ON j.id = s.job_id"
                          + " WHERE j.team_id = :team")
                  .bind("team", team.id())
                  .map(row -> row.get("n", Long.class))
                  .one()
                  .block())
          .as("no slot stays held by a finished job")
          .isZero();
      await()
          .atMost(Duration.ofMinutes(2))
          .untilAsserted(
              () -> {
                for (UUID job : jobs) {
                  assertThat(events.ofType(job, "JobResultRecorded"))
                      .as("result of %s", job)
                      .hasSize(1);
                  assertThat(events.states(job).stream().filter("completed"::equals)).hasSize(1);
                }
              });
    } finally {
      worker.stop();
    }
  }

  /**
   * A worker that runs every offer at once: reports started, then completed, to the replica whose
   * stream delivered it.
   */
  /**
   * The budget ledger across replicas: requests sent to both at once, admitted by both passes,
   * their jobs run by workers on both and settled by both. What is spent and reserved on the team
   * (sampled after every report) never passes the team's budget, and what is not run is refused
   * naming it.
   */
  @Test
  void concurrentRequestsAcrossBothReplicasNeverReserveOrSpendPastTheTeamBudget() throws Exception {
    long estimate = budgets.estimate().tokens();
    long limit = 10 * estimate;
    String owner = unique("pia");
    int members = 8;
    int perMember = 5;
    Map<String, String> roster = new HashMap<>();
    for (int i = 0; i < members; i++) {
      roster.put("m" + i, unique("agent"));
    }
    Teams.Team team = teams.create(owner, roster);
    web.put()
        .uri("/api/v1/teams/{team}/budget", team.id())
        .header("Authorization", owner(owner))
        .bodyValue(Map.of("max_tokens", limit))
        .exchange()
        .expectStatus()
        .isOk();
    WebClient here = WebClient.create(baseUrl());
    WebClient there = WebClient.create(other.baseUrl());

    ExecutorService pool = Executors.newFixedThreadPool(members * 2 + 1);
    List<TestWorker> connected = new ArrayList<>();
    try {
      // Every request at once, half to each replica; one the budget already refuses is a 409.
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Integer>> sent = new ArrayList<>();
      for (int i = 0; i < members * perMember; i++) {
        String to = "m" + (i % members);
        WebClient via = i % 2 == 0 ? here : there;
        sent.add(
            pool.submit(
                () -> {
                  go.await();
                  return via.post()
                      .uri("/api/v1/teams/{team}/requests", team.id())
                      .header("Authorization", owner(owner))
                      .bodyValue(Map.of("recipients", List.of(to), "text", "Work item"))
                      .exchangeToMono(r -> Mono.just(r.statusCode().value()))
                      .block();
                }));
      }
      go.countDown();
      long refusedAtRequest = 0;
      for (Future<Integer> f : sent) {
        int status = f.get();
        assertThat(status).isIn(201, 409);
        refusedAtRequest += status == 409 ? 1 : 0;
      }

      // Each member's worker on one replica or the other, reporting there; after every report the
      // team's ledger row is sampled.
      AtomicBoolean done = new AtomicBoolean();
      AtomicLong highest = new AtomicLong();
      Map<UUID, Long> used = new ConcurrentHashMap<>();
      List<Future<?>> running = new ArrayList<>();
      int k = 0;
      for (String agent : roster.values()) {
        String url = k++ % 2 == 0 ? baseUrl() : other.baseUrl();
        TestWorker worker = new TestWorker(tokens, owner, agent).connect(url, 60);
        connected.add(worker);
        running.add(pool.submit(() -> spend(team, worker, url, estimate, used, done, highest)));
      }
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> count("state NOT IN ('completed', 'failed', 'cancelled')", List.of(team)) == 0);
      done.set(true);
      for (Future<?> f : running) {
        f.get();
      }
      highest.accumulateAndGet(committed(team), Math::max);

      long spent = used.values().stream().mapToLong(Long::longValue).sum();
      assertThat(highest.get()).as("spent + reserved, sampled").isLessThanOrEqualTo(limit);
      assertThat(spent).isLessThanOrEqualTo(limit).isPositive();
      assertThat(
              db.sql(
                      "SELECT spent_tokens, reserved_tokens FROM ledger"
                          + " WHERE scope = 'team' AND scope_id = :team")
                  .bind("team", team.id().toString())
                  .map(
                      row ->
                          List.of(
                              row.get("spent_tokens", Long.class),
                              row.get("reserved_tokens", Long.class)))
                  .one()
                  .block())
          .as("the team's ledger: spent what the workers reported, nothing held")
          .containsExactly(spent, 0L);
      long refusedAtAdmission =
          count("state = 'failed' AND budget_stop = 'team.tokens'", List.of(team));
      assertThat(refusedAtAdmission + refusedAtRequest)
          .as("the rest refused naming the team budget")
          .isPositive();
      assertThat(used.size() + refusedAtAdmission + refusedAtRequest)
          .isEqualTo(members * perMember);
      assertThat(
              db.sql(
                      "SELECT DISTINCT admitted_by FROM job WHERE team_id = :team"
                          + " AND admitted_by IS NOT NULL")
                  .bind("team", team.id())
                  .map(row -> row.get("admitted_by", String.class))
                  .all()
                  .collectList()
                  .block())
          .as("both replicas admitted")
          .contains("replica-main", "replica-other");
    } finally {
      pool.shutdownNow();
      connected.forEach(TestWorker::close);
    }
  }

  /** Runs the worker's offers, reporting usage up to the estimate, until {@code done}. */
  private void spend(
      Teams.Team team,
      TestWorker worker,
      String url,
      long estimate,
      Map<UUID, Long> used,
      AtomicBoolean done,
      AtomicLong highest) {
    AtomicReference<Map<String, Object>> next = new AtomicReference<>();
    while (true) {
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(20))
          .until(
              () -> {
                worker.pollOffer().ifPresent(next::set);
                return done.get() || next.get() != null;
              });
      Map<String, Object> offer = next.getAndSet(null);
      if (offer == null) {
        return;
      }
      UUID id = TestWorker.jobId(offer);
      String lease = TestWorker.leaseToken(offer);
      long tokens = ThreadLocalRandom.current().nextLong(1, estimate + 1);
      if (tokens % 2 == 0) {
        worker.report(url, id, "heartbeat", lease, Map.of("usage", Map.of("tokens", tokens / 2)));
        highest.accumulateAndGet(committed(team), Math::max);
      }
      TestWorker.Reply reply =
          worker.report(
              url,
              id,
              "completed",
              lease,
              Map.of("answer", "done", "usage", Map.of("tokens", tokens)));
      assertThat(reply.status()).as("%s", reply.body()).isEqualTo(200);
      used.put(id, tokens);
      highest.accumulateAndGet(committed(team), Math::max);
    }
  }

  /** The team's spent and reserved tokens, as its ledger row holds them now. */
  private long committed(Teams.Team team) {
    Long value =
        db.sql(
                "SELECT spent_tokens + reserved_tokens AS n FROM ledger"
                    + " WHERE scope = 'team' AND scope_id = :team")
            .bind("team", team.id().toString())
            .map(row -> row.get("n", Long.class))
            .one()
            .block();
    return value == null ? 0 : value;
  }

  private Disposable work(
      String owner,
      String agent,
      String url,
      String replica,
      Map<UUID, String> deliveredBy,
      Map<UUID, AtomicInteger> runs) {
    AtomicBoolean connected = new AtomicBoolean();
    Disposable stream =
        stream(url, owner, agent, 30)
            .doOnNext(event -> connected.set(true))
            .filter(event -> "job".equals(event.event()) && event.data() != null)
            .map(ServerSentEvent::data)
            .flatMap(
                offer -> {
                  UUID job = UUID.fromString((String) offer.get("job_id"));
                  deliveredBy.put(job, replica);
                  runs.computeIfAbsent(job, id -> new AtomicInteger()).incrementAndGet();
                  String lease = (String) offer.get("lease_token");
                  return report(url, owner, agent, job, "started", lease, Map.of())
                      .then(
                          report(
                              url, owner, agent, job, "completed", lease, Map.of("answer", "ok")))
                      // A lost report shows up as a job that never completes.
                      .onErrorResume(e -> Mono.empty());
                },
                16)
            .subscribe();
    await().atMost(Duration.ofSeconds(30)).untilTrue(connected);
    return stream;
  }

  private Flux<ServerSentEvent<Map<String, Object>>> stream(
      String url, String owner, String agent, int leaseSeconds) {
    return WebClient.create(url)
        .get()
        .uri("/api/v1/agents/{agent}/jobs/stream?lease_seconds={s}", agent, leaseSeconds)
        .header("Authorization", bearer(tokens, owner, agent))
        .retrieve()
        .bodyToFlux(EVENTS);
  }

  private Mono<Void> report(
      String url,
      String owner,
      String agent,
      UUID job,
      String type,
      String lease,
      Map<String, Object> extra) {
    return report(tokens, url, owner, agent, job, type, lease, extra);
  }

  private static Mono<Void> report(
      CallerTokens tokens,
      String url,
      String owner,
      String agent,
      UUID job,
      String type,
      String lease,
      Map<String, Object> extra) {
    Map<String, Object> body = new HashMap<>(extra);
    body.put("type", type);
    body.put("lease_token", lease);
    return WebClient.create(url)
        .post()
        .uri("/api/v1/jobs/{id}/events", job)
        .header("Authorization", bearer(tokens, owner, agent))
        .bodyValue(body)
        .retrieve()
        .toBodilessEntity()
        .then();
  }

  private static String bearer(CallerTokens tokens, String owner, String agent) {
    return "Bearer " + tokens.issue(new Caller.Worker(owner, agent), Duration.ofMinutes(5));
  }

  private long count(String condition, List<Teams.Team> of) {
    return db.sql("SELECT count(*) AS n FROM job WHERE team_id = ANY(:teams) AND " + condition)
        .bind("teams", of.stream().map(Teams.Team::id).toArray(UUID[]::new))
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  private Map<UUID, Integer> admissions(List<Teams.Team> of) {
    return db.sql("SELECT id, admissions FROM job WHERE team_id = ANY(:teams)")
        .bind("teams", of.stream().map(Teams.Team::id).toArray(UUID[]::new))
        .map(row -> Map.entry(row.get("id", UUID.class), row.get("admissions", Integer.class)))
        .all()
        .collectMap(Map.Entry::getKey, Map.Entry::getValue)
        .block();
  }

  /** How often schedule-to-start gave the job's slot back because no worker took its offer. */
  private long waitsForAWorker(UUID job) {
    return events.states(job).stream().filter("waiting_worker"::equals).count();
  }

  /** The states, less each detour an admitted job took when no worker took it in time. */
  private static List<String> withoutWaitsForAWorker(List<String> states) {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < states.size(); i++) {
      if (states.get(i).equals("waiting_worker")
          && states
              .subList(i, Math.min(i + 3, states.size()))
              .equals(List.of("waiting_worker", "queued", "admitted"))) {
        i += 2;
      } else {
        kept.add(states.get(i));
      }
    }
    return kept;
  }

  private List<UUID> allJobs(List<Teams.Team> of) {
    return db.sql("SELECT id FROM job WHERE team_id = ANY(:teams)")
        .bind("teams", of.stream().map(Teams.Team::id).toArray(UUID[]::new))
        .map(row -> row.get("id", UUID.class))
        .all()
        .collectList()
        .block();
  }

  private Map<String, Long> admittedBy(List<Teams.Team> of) {
    return db.sql(
            "SELECT admitted_by, count(*) AS n FROM job WHERE team_id = ANY(:teams) GROUP BY 1")
        .bind("teams", of.stream().map(Teams.Team::id).toArray(UUID[]::new))
        .map(row -> Map.entry(row.get("admitted_by", String.class), row.get("n", Long.class)))
        .all()
        .collectMap(Map.Entry::getKey, Map.Entry::getValue)
        .block();
  }

  private String admittedByOf(UUID job) {
    return db.sql("SELECT admitted_by FROM job WHERE id = :id")
        .bind("id", job)
        .map(row -> row.get("admitted_by", String.class))
        .one()
        .block();
  }

  /** Samples, from its own connection, every two milliseconds, how many jobs hold a slot. */
  private static final class ActiveSampler {
    private final AtomicInteger maxActive = new AtomicInteger();
    private final AtomicInteger maxSlots = new AtomicInteger();
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLong activeSum = new AtomicLong();
    private final Connection connection;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    ActiveSampler(Database database) throws SQLException {
      connection =
          DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
      timer.scheduleAtFixedRate(this::sample, 0, 2, TimeUnit.MILLISECONDS);
    }

    private void sample() {
      try (var statement = connection.createStatement();
          ResultSet rs =
              statement.executeQuery(
                  "SELECT (SELECT count(*) FROM job"
                      + " WHERE state IN ('admitted', 'running', 'unknown')),"
                      + " (SELECT count(*) FROM admission_slot WHERE job_id IS NOT NULL)")) {
        rs.next();
        maxActive.accumulateAndGet(rs.getInt(1), Math::max);
        maxSlots.accumulateAndGet(rs.getInt(2), Math::max);
        samples.incrementAndGet();
        activeSum.addAndGet(rs.getInt(1));
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    void stop() throws Exception {
      timer.shutdown();
      timer.awaitTermination(10, TimeUnit.SECONDS);
      connection.close();
    }

    int maxActive() {
      return maxActive.get();
    }

    int maxSlotsHeld() {
      return maxSlots.get();
    }

    double meanActive() {
      return samples.get() == 0 ? 0 : (double) activeSum.get() / samples.get();
    }
  }

  /**
   * A worker that keeps its own record of the jobs it ran, as the protocol asks of a runtime: on a
   * reconciliation offer it reports what its record says, and runs the job only if it never did.
   * Its stream is on one replica and reconnects to it whenever it drops; a report goes to that
   * replica, or to the other one while it is down.
   */
  private static final class RecordingWorker {
    private final CallerTokens tokens;
    private final String owner;
    private final String agent;
    private final String streamUrl;
    private final String fallbackUrl;
    private final Map<UUID, Integer> runs = new ConcurrentHashMap<>();
    private final Set<UUID> done = ConcurrentHashMap.newKeySet();
    private final AtomicInteger offers = new AtomicInteger();
    private final AtomicInteger reconciliations = new AtomicInteger();
    private Disposable stream = () -> {};

    RecordingWorker(
        CallerTokens tokens, String owner, String agent, String streamUrl, String fallbackUrl) {
      this.tokens = tokens;
      this.owner = owner;
      this.agent = agent;
      this.streamUrl = streamUrl;
      this.fallbackUrl = fallbackUrl;
    }

    void start() {
      stream =
          Flux.defer(
                  () ->
                      WebClient.create(streamUrl)
                          .get()
                          .uri("/api/v1/agents/{agent}/jobs/stream?lease_seconds=2", agent)
                          .header("Authorization", bearer(tokens, owner, agent))
                          .retrieve()
                          .bodyToFlux(EVENTS))
              .repeat()
              .retryWhen(Retry.fixedDelay(Long.MAX_VALUE, Duration.ofMillis(300)))
              .filter(event -> "job".equals(event.event()) && event.data() != null)
              .map(ServerSentEvent::data)
              .flatMap(this::handle, 8)
              .subscribe();
    }

    private Mono<Void> handle(Map<String, Object> offer) {
      offers.incrementAndGet();
      if (Boolean.TRUE.equals(offer.get("reconcile"))) {
        reconciliations.incrementAndGet();
      }
      UUID job = UUID.fromString((String) offer.get("job_id"));
      String lease = (String) offer.get("lease_token");
      if (Boolean.TRUE.equals(offer.get("reconcile")) && done.contains(job)) {
        return send(job, "completed", lease, Map.of("answer", "from my record"));
      }
      if (!runs.containsKey(job) || !Boolean.TRUE.equals(offer.get("reconcile"))) {
        runs.merge(job, 1, Integer::sum);
      }
      return send(job, "started", lease, Map.of())
          .then(Mono.fromRunnable(() -> done.add(job)))
          .then(send(job, "completed", lease, Map.of("answer", "ran " + job)));
    }

    /** Reports to the stream's replica, or to the other one while it is down. */
    private Mono<Void> send(UUID job, String type, String lease, Map<String, Object> extra) {
      return report(tokens, streamUrl, owner, agent, job, type, lease, extra)
          .onErrorResume(
              WebClientRequestException.class,
              down -> report(tokens, fallbackUrl, owner, agent, job, type, lease, extra))
          .onErrorResume(e -> Mono.empty());
    }

    int completed() {
      return done.size();
    }

    int offersReceived() {
      return offers.get();
    }

    Map<UUID, Integer> runs() {
      return runs.entrySet().stream()
          .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    void stop() {
      stream.dispose();
    }
  }
}
