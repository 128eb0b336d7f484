package io.agentteams.scheduler.bench;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.platform.test.Database;
import io.agentteams.platform.test.TestInfrastructure;
import io.agentteams.scheduler.SchedulerApplication;
import io.agentteams.scheduler.admission.application.AdmissionLoop;
import io.agentteams.scheduler.admission.domain.Fairness;
import io.agentteams.scheduler.admission.persistence.AdmissionStore;
import io.agentteams.scheduler.budget.BudgetProperties;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.budget.persistence.BudgetStore;
import io.agentteams.scheduler.dispatch.application.DispatchPort;
import io.agentteams.scheduler.dispatch.application.PullStreams;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.job.application.JobRequests;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.Question;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Admission throughput and queue-to-admitted latency of scheduler-service, beside the raw {@code
 * FOR UPDATE SKIP LOCKED} claim rate on the same database in the same run.
 *
 * <ul>
 *   <li><b>Raw floor</b>: 1,000 queued rows in a bare table, claimed one row per statement by 8
 *       concurrent claimers (the classic worker-queue claim), until none is left.
 *   <li><b>Admission drain</b>: 1,000 queued jobs (10 owners, each job the head of its own
 *       conversation) and capacity for all of them, admitted by the real admission loop: the
 *       rotation, the slot rows, the bulk admission and one {@code JobStateChanged} outbox event
 *       per job, in passes of at most {@code max-per-pass}. This is the figure compared with the
 *       raw rate.
 *   <li><b>Admission drain with budgets</b>: the same drain with a tokens budget on every bench
 *       team, so the admission pass reserves each job's estimate on its team's ledger row (locked
 *       without waiting) and records the hold on the job. Every round measures the floor and both
 *       drains one after the other (in turn budgeted first), so the budgeted drain is compared with
 *       the unbudgeted drain of the same round.
 *   <li><b>Full lifecycle on 8 slots</b> (context, no target): 1,000 queued jobs through admission,
 *       a leased offer and a completion report, the runtime answering at once.
 *   <li><b>Queue-to-admitted latency</b>: 1,000 queued jobs stay in the queue behind conversations
 *       waiting for input (so every pass has to look past them), 8 slots, and 500 new jobs arrive
 *       at 100 per second, each run and completed at once; the time from each job's commit (and,
 *       separately, from its queued timestamp) to its admission.
 * </ul>
 *
 * <p>Run: {@code ./mvnw -Dbench=admission -pl scheduler-service -am verify}: five measured rounds
 * ({@code -Dbench.rounds}) after a warm-up round, medians printed. A quick check that it runs (no
 * figure to quote): add {@code -Dbench.jobs=100 -Dbench.probes=20}; {@code -Dbench.drain-only=true}
 * stops after the drains.
 */
public final class AdmissionBenchmark {

  /** Queued jobs per measurement; {@code -Dbench.jobs} (a multiple of 10) for a quick check. */
  static final int JOBS = Integer.getInteger("bench.jobs", 1_000);

  static final int OWNERS = 10;
  static final int CLAIMERS = 8;

  /** Jain's index of the last lifecycle run ({@link #firstHalfFairness}). */
  private double lifecycleFairness;

  /** Measured rounds; {@code -Dbench.rounds}. */
  static final int ROUNDS = Integer.getInteger("bench.rounds", 5);

  /**
   * {@code -Dbench.drain-only=true} measures the drains only, without the lifecycle and latency.
   */
  static final boolean DRAIN_ONLY = Boolean.getBoolean("bench.drain-only");

  /** Jobs arriving in the latency run; {@code -Dbench.probes} for a quick check. */
  static final int PROBES = Integer.getInteger("bench.probes", 500);

  /** The latency run's standing queue: 20 owners, 5 conversations each, 10 jobs behind each. */
  static final int STANDING = 20 * 5 * 10;

  /** The team budget of the budgeted rounds: far above what they use, so it never refuses. */
  static final long TEAM_BUDGET_TOKENS = 1_000_000_000_000L;

  static final Duration PROBE_INTERVAL = Duration.ofMillis(10);
  static final String INPUT = "Summarise the findings of the previous step in five bullet points.";

  private final ConfigurableApplicationContext app;
  private final DatabaseClient db;
  private final JobRequests requests;
  private final AdmissionLoop loop;
  private final AdmissionStore admission;
  private final DispatchPort dispatch;
  private final PullStreams streams;
  private final KafkaTemplate<Object, Object> kafka;
  private final EventCodec codec;
  private final Rosters rosters;
  private final BudgetStore ledger;
  private final long estimateTokens;

  @SuppressWarnings("unchecked")
  AdmissionBenchmark(ConfigurableApplicationContext app) {
    this.app = app;
    this.db = app.getBean(DatabaseClient.class);
    this.requests = app.getBean(JobRequests.class);
    this.loop = app.getBean(AdmissionLoop.class);
    this.admission = app.getBean(AdmissionStore.class);
    this.dispatch = app.getBean(DispatchPort.class);
    this.streams = app.getBean(PullStreams.class);
    this.kafka = app.getBean(KafkaTemplate.class);
    this.codec = app.getBean(EventCodec.class);
    this.rosters = app.getBean(Rosters.class);
    this.ledger = app.getBean(BudgetStore.class);
    this.estimateTokens = app.getBean(BudgetProperties.class).estimate().tokens();
  }

  public static void main(String[] args) throws Exception {
    TestInfrastructure infrastructure = TestInfrastructure.shared();
    Database database = infrastructure.freshDatabase("schedbench");
    ConfigurableApplicationContext app =
        SchedulerApplication.application()
            .run(
                io.agentteams.platform.testidentity.TestIdentity.withKeys(
                    "--server.port=0",
                    "--spring.r2dbc.url=" + database.r2dbcUrl(),
                    "--spring.r2dbc.username=" + database.username(),
                    "--spring.r2dbc.password=" + database.password(),
                    "--spring.flyway.url=" + database.jdbcUrl(),
                    "--spring.flyway.user=" + database.username(),
                    "--spring.flyway.password=" + database.password(),
                    "--spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
                    "--agentteams.scheduler.admission.enabled=false",
                    "--agentteams.scheduler.replica-id=bench",
                    // The probe owner sends 500 one-recipient requests to one team; the default
                    // team
                    // limit (100) would refuse all but the first hundred.
                    "--agentteams.scheduler.jobs.team-max-requests=" + Math.max(PROBES, 100),
                    "--logging.level.root=WARN"));
    System.out.printf(
        "Admission benchmark: embedded Kafka and Postgres, %d cores, %d queued jobs%n",
        Runtime.getRuntime().availableProcessors(), JOBS);
    AdmissionBenchmark bench = new AdmissionBenchmark(app);
    try {
      bench.run();
    } finally {
      app.close();
    }
    System.exit(0);
  }

  void run() throws Exception {
    List<Team> teams = new ArrayList<>();
    for (int o = 0; o < OWNERS; o++) {
      teams.add(team("owner-" + o, JOBS / OWNERS));
    }
    // The standing queue of the latency run: 20 owners, 5 conversations each, 10 jobs behind
    // each conversation's head (55 requests per team, within the team limit).
    List<Team> blocked = new ArrayList<>();
    for (int o = 0; o < 20; o++) {
      blocked.add(team("blocked-" + o, 5));
    }
    Team probes = team("probe-owner", PROBES);

    // Warm-up: one unmeasured round of each, so the JIT compiled the hot paths.
    Budget teamBudget = new Budget(TEAM_BUDGET_TOKENS, null, null, null);
    rawClaimRate();
    drain(teams);
    budgetedDrain(teams, teamBudget);

    // Each round measures the floor, the drain and the drain with budgets on, one after the
    // other (in turn budgeted first), so a change in the machine's load between rounds moves all
    // three together and the ratio of the two drains within a round is what compares.
    List<Double> raw = new ArrayList<>();
    List<Drain> plain = new ArrayList<>();
    List<Drain> reserving = new ArrayList<>();
    for (int round = 0; round < ROUNDS; round++) {
      raw.add(rawClaimRate());
      if (round % 2 == 0) {
        plain.add(drain(teams));
        reserving.add(budgetedDrain(teams, teamBudget));
      } else {
        reserving.add(budgetedDrain(teams, teamBudget));
        plain.add(drain(teams));
      }
      Drain p = plain.get(round);
      Drain b = reserving.get(round);
      System.out.printf(
          "round %d: raw %.0f rows/s; admission drain %.0f jobs/s, %s; budgeted %.0f jobs/s, %s;"
              + " budgeted/unbudgeted: rate %.0f%%, processor time %.0f%%%n",
          round + 1,
          raw.get(round),
          p.rate(),
          p.cpu(),
          b.rate(),
          b.cpu(),
          100.0 * b.rate() / p.rate(),
          100.0 * b.cpuPerJob() / p.cpuPerJob());
    }
    List<Double> drain = plain.stream().map(Drain::rate).toList();
    List<Double> budgeted = reserving.stream().map(Drain::rate).toList();
    List<Double> rateShare =
        IntStream.range(0, ROUNDS).mapToObj(r -> budgeted.get(r) / drain.get(r)).toList();
    List<Double> cpuShare =
        IntStream.range(0, ROUNDS)
            .mapToObj(r -> reserving.get(r).cpuPerJob() / plain.get(r).cpuPerJob())
            .toList();
    double rawRate = median(raw);
    double drainRate = median(drain);
    System.out.printf(
        "%nRaw SKIP LOCKED claims (%d claimers, 1 row each)   %8.0f rows/s   rounds %s%n",
        CLAIMERS, rawRate, rounded(raw));
    System.out.printf(
        "Admission drain (capacity for all, real loop)     %8.0f jobs/s   rounds %s%n",
        drainRate, rounded(drain));
    System.out.printf(
        "Admission drain, every team budgeted (reserving)  %8.0f jobs/s   rounds %s%n",
        median(budgeted), rounded(budgeted));
    System.out.printf(
        "Processor time per job (this JVM + Postgres): unbudgeted %.0f µs, budgeted %.0f µs%n",
        median(plain.stream().map(Drain::cpuPerJob).toList()),
        median(reserving.stream().map(Drain::cpuPerJob).toList()));
    System.out.printf(
        "Budgets on, against the unbudgeted drain of the same round (medians):"
            + " rate %.0f%% %s, processor time per job %.0f%% %s%n",
        100.0 * median(rateShare),
        percents(rateShare),
        100.0 * median(cpuShare),
        percents(cpuShare));
    if (DRAIN_ONLY) {
      return;
    }

    double lifecycle = lifecycleRate(teams);
    Latency latency = latency(blocked, probes);
    System.out.printf(
        "Full lifecycle on 8 slots (admit, offer, complete) %7.0f jobs/s%n", lifecycle);
    System.out.printf(
        "Fairness on 8 slots, %d owners backlogged: Jain's index over the first %d admissions %.4f"
            + " (target >= 0.99)%n",
        OWNERS, JOBS / 2, lifecycleFairness);
    System.out.printf(
        "Queue-to-admitted, %d jobs at 100/s beside %d queued: from commit p50 %.1f ms p99 %.1f ms max %.1f ms;"
            + " from queued_at p50 %.1f ms p99 %.1f ms%n",
        PROBES,
        STANDING,
        latency.fromCommitP50(),
        latency.fromCommitP99(),
        latency.fromCommitMax(),
        latency.fromQueuedP50(),
        latency.fromQueuedP99());
    System.out.printf(
        "%nRatios: admission drain / raw claims = %.0f%% (target >= 50%%); queue-to-admitted p99 = %.1f ms"
            + " (target <= 50 ms)%n",
        100.0 * drainRate / rawRate, latency.fromCommitP99());
  }

  /**
   * The drain with a tokens budget on every bench team, so each pass reserves as it admits; checks
   * that every job holds its estimate and the team balances hold them all.
   */
  Drain budgetedDrain(List<Team> teams, Budget budget) {
    budgetTeams(teams, budget);
    try {
      Drain drain = drain(teams);
      check(
          count("state = 'admitted' AND cardinality(reserved_on) > 0") == JOBS,
          "not every job reserved on its team's budget");
      check(
          teamsReserved() == JOBS * estimateTokens,
          "the team balances do not hold every job's estimate");
      return drain;
    } finally {
      budgetTeams(teams, Budget.NONE);
    }
  }

  // ---- raw floor ----

  double rawClaimRate() {
    db.sql(
            "CREATE TABLE IF NOT EXISTS bench_raw_queue (id bigserial PRIMARY KEY,"
                + " state text NOT NULL, payload text NOT NULL)")
        .fetch()
        .rowsUpdated()
        .block();
    db.sql("TRUNCATE bench_raw_queue").fetch().rowsUpdated().block();
    db.sql(
            "INSERT INTO bench_raw_queue (state, payload) SELECT 'queued', :payload"
                + " FROM generate_series(1, :n)")
        .bind("payload", INPUT)
        .bind("n", JOBS)
        .fetch()
        .rowsUpdated()
        .block();
    db.sql("ANALYZE bench_raw_queue").fetch().rowsUpdated().block();
    Mono<Long> claim =
        db.sql(
                """
                UPDATE bench_raw_queue SET state = 'claimed'
                WHERE id = (SELECT id FROM bench_raw_queue WHERE state = 'queued'
                            ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING id
                """)
            .map(row -> row.get("id", Long.class))
            .one();
    long start = System.nanoTime();
    long claimed =
        Flux.range(0, CLAIMERS)
            .flatMap(
                claimer ->
                    Mono.defer(() -> claim.defaultIfEmpty(-1L))
                        .repeat()
                        .takeWhile(id -> id > 0)
                        .count())
            .reduce(0L, Long::sum)
            .block();
    double seconds = (System.nanoTime() - start) / 1e9;
    check(claimed == JOBS, "raw claimers claimed " + claimed);
    return JOBS / seconds;
  }

  // ---- admission drain ----

  /**
   * One drain's rate, and the processor time it used per job: this JVM's (the scheduler, and the
   * embedded Kafka the outbox relay publishes to) and the Postgres processes'. Under load from
   * other processes the rate moves with the machine; the processor time per job much less.
   */
  record Drain(double rate, long jvmMicros, long databaseMicros) {
    double cpuPerJob() {
      return (jvmMicros + databaseMicros) / (double) JOBS;
    }

    String cpu() {
      return String.format(
          "%.0f µs/job (JVM %.0f, Postgres %.0f)",
          cpuPerJob(), jvmMicros / (double) JOBS, databaseMicros / (double) JOBS);
    }
  }

  Drain drain(List<Team> teams) {
    reset();
    admission.configureCapacity(JOBS).block();
    queueOnePerConversation(teams);
    // The queued events are relayed before the drain starts, so their work is not counted in it.
    try {
      waitUntil(() -> pendingEvents() == 0, Duration.ofMinutes(2));
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    long jvmBefore = jvmMicros();
    long databaseBefore = databaseMicros();
    long start = System.nanoTime();
    int admitted = loop.drain().block();
    double seconds = (System.nanoTime() - start) / 1e9;
    long jvm = jvmMicros() - jvmBefore;
    long database = databaseMicros() - databaseBefore;
    check(admitted == JOBS, "the drain admitted " + admitted);
    check(count("state = 'admitted' AND admissions = 1") == JOBS, "not every job admitted once");
    return new Drain(JOBS / seconds, jvm, database);
  }

  long pendingEvents() {
    return db.sql("SELECT count(*) AS n FROM platform.outbox WHERE status = 'PENDING'")
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  static long jvmMicros() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1_000;
  }

  /**
   * Processor time of the database's processes so far: the postmaster's children (backends and
   * background workers) and, in the postmaster's own figures, those that already exited. Read from
   * {@code /proc} in clock ticks of 10 ms.
   */
  long databaseMicros() {
    if (postmaster == 0) {
      int backend =
          db.sql("SELECT pg_backend_pid() AS pid")
              .map(row -> row.get("pid", Integer.class))
              .one()
              .block();
      postmaster = procStat(backend)[1];
    }
    long ticks = 0;
    long[] own = procStat(postmaster);
    ticks += own[11] + own[12] + own[13] + own[14];
    try (var processes = Files.list(Path.of("/proc"))) {
      for (Path dir : processes.toList()) {
        String name = dir.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        long[] stat = procStat(Long.parseLong(name));
        if (stat.length > 12 && stat[1] == postmaster) {
          ticks += stat[11] + stat[12];
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ticks * 10_000;
  }

  private long postmaster;

  /**
   * The first numeric fields of {@code /proc/<pid>/stat} after the command name (index 1 is the
   * parent, 11 and 12 user and system time, 13 and 14 those of waited-for children); empty when the
   * process is gone.
   */
  static long[] procStat(long pid) {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException e) {
      return new long[0];
    }
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    // Up to the children's system time: later fields hold values past a long's range.
    long[] values = new long[15];
    for (int i = 1; i < values.length; i++) {
      values[i] = Long.parseLong(fields[i]);
    }
    return values;
  }

  static List<String> percents(List<Double> shares) {
    return shares.stream().map(r -> String.format("%.0f%%", 100 * r)).toList();
  }

  // ---- full lifecycle ----

  double lifecycleRate(List<Team> teams) throws InterruptedException {
    reset();
    admission.configureCapacity(8).block();
    queueOnePerConversation(teams);
    long start = System.nanoTime();
    loop.run();
    List<Disposable> workers = teams.stream().map(this::completeEverything).toList();
    waitUntil(() -> count("state = 'completed'") == JOBS, Duration.ofMinutes(10));
    double seconds = (System.nanoTime() - start) / 1e9;
    workers.forEach(Disposable::dispose);
    loop.stop();
    lifecycleFairness = firstHalfFairness();
    return JOBS / seconds;
  }

  /**
   * Jain's index over the owners' shares of the first half of the lifecycle run's admissions: every
   * owner queued as many jobs and is still backlogged through them, so fair admission gives each
   * the same share (1.0); admitting in queue order alone, owner after owner, gives 0.2.
   */
  double firstHalfFairness() {
    List<String> owners =
        db.sql(
                "SELECT owner_id FROM job WHERE admitted_at IS NOT NULL"
                    + " ORDER BY admitted_at, queued_at, id LIMIT :half")
            .bind("half", JOBS / 2)
            .map(row -> row.get("owner_id", String.class))
            .all()
            .collectList()
            .block();
    Map<String, Double> shares = new TreeMap<>();
    owners.forEach(owner -> shares.merge(owner, 1.0, Double::sum));
    for (int o = 0; o < OWNERS; o++) {
      shares.putIfAbsent("owner-" + o, 0.0);
    }
    return Fairness.jain(shares.values());
  }

  // ---- latency beside a queue ----

  record Latency(
      double fromCommitP50,
      double fromCommitP99,
      double fromCommitMax,
      double fromQueuedP50,
      double fromQueuedP99) {}

  Latency latency(List<Team> blocked, Team probes) throws InterruptedException {
    reset();
    // The standing queue: every conversation gets a head that asks a question, and ten jobs
    // queue behind each head.
    admission.configureCapacity(JOBS).block();
    queueOnePerConversation(blocked);
    loop.drain().block();
    for (Team team : blocked) {
      AgentKey agent = new AgentKey(team.owner(), team.agent());
      List<Offer> heads =
          dispatch.claim(agent, "bench", JOBS, Duration.ofMinutes(30)).collectList().block();
      Flux.fromIterable(heads)
          .concatMap(
              offer ->
                  dispatch.report(
                      new Caller.Worker(team.owner(), team.agent()),
                      offer.spec().id(),
                      new WorkerReport.InputRequired(
                          offer.lease().token(),
                          new Question(InputKind.CLARIFICATION, "Which scope?"),
                          null)))
          .blockLast();
    }
    for (int i = 0; i < 10; i++) {
      queueOnePerConversation(blocked);
    }
    check(count("state = 'queued'") == STANDING, "the standing queue is not " + STANDING);
    admission.configureCapacity(8).block();

    loop.run();
    Disposable worker = completeEverything(probes);
    Map<UUID, Instant> committed = new ConcurrentHashMap<>();
    Flux.interval(PROBE_INTERVAL)
        .onBackpressureBuffer()
        .take(PROBES)
        .concatMap(
            i ->
                requests
                    .submit(
                        new Caller.Owner(probes.owner()),
                        probes.id(),
                        List.of(probes.member(i.intValue())),
                        INPUT,
                        "probe-" + i)
                    .doOnNext(
                        submitted -> committed.put(submitted.jobs().get(0).id(), Instant.now())))
        .blockLast();
    waitUntil(
        () -> count("team_id = '" + probes.id() + "' AND admitted_at IS NOT NULL") == PROBES,
        Duration.ofMinutes(5));
    worker.dispose();
    loop.stop();

    Histogram fromCommit = new Histogram(TimeUnit.MINUTES.toMicros(5), 3);
    Instant first = committed.values().stream().min(Instant::compareTo).orElseThrow();
    List<long[]> slow = new java.util.concurrent.CopyOnWriteArrayList<>();
    Histogram fromQueued = new Histogram(TimeUnit.MINUTES.toMicros(5), 3);
    db.sql("SELECT id, queued_at, admitted_at FROM job WHERE team_id = :team")
        .bind("team", probes.id())
        .map(
            row ->
                new Object[] {
                  row.get("id", UUID.class),
                  row.get("queued_at", OffsetDateTime.class).toInstant(),
                  row.get("admitted_at", OffsetDateTime.class).toInstant()
                })
        .all()
        .doOnNext(
            row -> {
              Instant queued = (Instant) row[1];
              Instant admitted = (Instant) row[2];
              Instant commit = committed.get((UUID) row[0]);
              fromCommit.recordValue(Math.max(0, micros(commit, admitted)));
              slow.add(new long[] {micros(first, commit) / 1000, micros(commit, admitted) / 1000});
              fromQueued.recordValue(Math.max(0, micros(queued, admitted)));
            })
        .blockLast();
    check(
        count("team_id <> '" + probes.id() + "' AND state = 'queued'") == STANDING, "queue moved");
    // Where the tail comes from: when the slowest probes were committed, and how long they waited.
    System.out.println(
        "slowest probes (ms into the run: ms waited): "
            + slow.stream()
                .sorted((a, b) -> Long.compare(b[1], a[1]))
                .limit(12)
                .map(x -> x[0] + ": " + x[1])
                .toList());
    return new Latency(
        fromCommit.getValueAtPercentile(50) / 1e3,
        fromCommit.getValueAtPercentile(99) / 1e3,
        fromCommit.getMaxValue() / 1e3,
        fromQueued.getValueAtPercentile(50) / 1e3,
        fromQueued.getValueAtPercentile(99) / 1e3);
  }

  /** A runtime for the team's agent that completes every job it is offered, at once. */
  Disposable completeEverything(Team team) {
    Caller.Worker worker = new Caller.Worker(team.owner(), team.agent());
    return streams
        .offers(
            new AgentKey(team.owner(), team.agent()),
            new PullStreams.Terms(Duration.ofMinutes(5), "bench", null))
        .flatMap(
            offer ->
                dispatch
                    .report(
                        worker,
                        offer.spec().id(),
                        new WorkerReport.Completed(offer.lease().token(), "done", Usage.NONE, null))
                    .onErrorResume(e -> Mono.<Job>empty()),
            16)
        .subscribe();
  }

  // ---- set-up ----

  /** An owner's team of {@code size} members, each with its own conversation. */
  record Team(UUID id, String owner, String agent, List<String> members) {
    String member(int i) {
      return members.get(i);
    }
  }

  Team team(String owner, int size) {
    UUID id = UUID.randomUUID();
    String agent = "agent-" + owner;
    List<String> names = IntStream.range(0, size).mapToObj(i -> "m" + i).toList();
    TeamCreated created =
        new TeamCreated(
            id.toString(),
            owner,
            "bench",
            "bench",
            "ready",
            names.stream()
                .map(name -> new RosterMember(name, agent, false, owner + "-" + name))
                .toList(),
            1);
    kafka
        .send(
            Topics.TEAM_EVENTS,
            id.toString(),
            codec.write(codec.envelope(created, id.toString(), owner, 1, null)))
        .join();
    try {
      waitUntil(() -> rosters.find(id).blockOptional().isPresent(), Duration.ofMinutes(1));
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    return new Team(id, owner, agent, names);
  }

  /** One job for every member of every team, each in its own conversation. */
  void queueOnePerConversation(List<Team> teams) {
    Flux.fromIterable(teams)
        .flatMap(
            team ->
                requests.submit(
                    new Caller.Owner(team.owner()),
                    team.id(),
                    team.members(),
                    INPUT,
                    UUID.randomUUID().toString()),
            4)
        .blockLast();
  }

  /** Sets (or, with {@link Budget#NONE}, removes) a budget on every team. */
  void budgetTeams(List<Team> teams, Budget budget) {
    Flux.fromIterable(teams)
        .concatMap(
            team ->
                ledger.setBudget(Scope.team(team.id()), team.owner(), budget, null, Instant.now()))
        .blockLast();
  }

  /** Empties the scheduler's tables between measurements (benchmark only). */
  void reset() {
    db.sql("TRUNCATE job, request_key, team_quota, chain, owner_usage, ledger")
        .fetch()
        .rowsUpdated()
        .then(
            db.sql("UPDATE admission_slot SET job_id = NULL, held_since = NULL")
                .fetch()
                .rowsUpdated())
        .then(
            db.sql("UPDATE admission_control SET rotation = '{}', served_in_turn = 0")
                .fetch()
                .rowsUpdated())
        .block();
  }

  /** Tokens the team balances hold reserved. */
  long teamsReserved() {
    return db.sql(
            "SELECT coalesce(sum(reserved_tokens), 0)::bigint AS n FROM ledger WHERE scope = 'team'")
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  long count(String condition) {
    return db.sql("SELECT count(*) AS n FROM job WHERE " + condition)
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  static void waitUntil(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("gave up waiting after " + timeout);
      }
      Thread.sleep(5);
    }
  }

  static long micros(Instant from, Instant to) {
    return Duration.between(from, to).toNanos() / 1_000;
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  static String rounded(List<Double> values) {
    return values.stream().map(v -> String.format("%.0f", v)).toList().toString();
  }

  static void check(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException(what);
    }
  }
}
