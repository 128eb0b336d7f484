package io.agentteams.taskboard.bench;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.platform.test.CpuUsage;
import io.agentteams.platform.test.Database;
import io.agentteams.platform.test.JitActivity;
import io.agentteams.platform.test.TestInfrastructure;
import io.agentteams.taskboard.TaskBoardApplication;
import io.agentteams.taskboard.plan.application.PlanCommands;
import io.agentteams.taskboard.plan.domain.PlanNormalizer;
import io.agentteams.taskboard.task.application.TaskCommands;
import io.agentteams.taskboard.task.domain.TaskId;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.awaitility.Awaitility;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Claims per second and claim latency under 16 contending claimants, beside the raw floor measured
 * in the same run on the same database: a plain single-row compare-and-set UPDATE.
 *
 * <p>Both sides run the same workload. A round has {@value #TASKS} ready tasks; 16 claimants (two
 * sessions for each of 8 members) each walk the tasks in their own random order, one request in
 * flight each, skipping tasks they have seen claimed (as a client watching the board would), and
 * try to claim each remaining one at the revision they know. Losers of a race get a conflict and
 * move on. The service side is the real claim: roster check, compare-and-set of the task, the
 * {@code TaskClaimed} event into the outbox, one transaction, with the relay publishing to Kafka
 * meanwhile. The raw side is {@code UPDATE ... SET owner, revision = revision + 1 WHERE id AND
 * revision AND owner IS NULL} in autocommit, through the same connection pool.
 *
 * <p>Throughput counts successful claims per second of a round; latency covers every attempt (won
 * or lost). Each side is measured on its own, as JMH forks a benchmark to keep other code's type
 * profiles out of it: the raw side warms up until a round leaves the JIT quiet and runs its rounds,
 * then the service side does the same. All the service's boards are imported before its first
 * round, so between its rounds the JVM runs nothing but claims.
 *
 * <p>Run: {@code ./mvnw -Dbench=claims -pl task-board-service -am verify}
 */
public final class ClaimBenchmark {

  static final int TASKS = Integer.getInteger("bench.tasks", 12_000);
  static final int ROUNDS = Integer.getInteger("bench.rounds", 5);
  static final double QUIET_JIT = 0.05;
  static final int MAX_WARMUPS = 16;
  static final int CLAIMANTS = Integer.getInteger("bench.claimants", 16);
  static final List<String> MEMBERS =
      List.of("lead", "ana", "ben", "cy", "dee", "eli", "fay", "gus");

  public static void main(String[] args) throws Exception {
    TestInfrastructure infrastructure = TestInfrastructure.shared();
    Database database = infrastructure.freshDatabase("taskbench");
    ConfigurableApplicationContext app =
        TaskBoardApplication.application()
            .run(
                io.agentteams.platform.testidentity.TestIdentity.withKeys(
                    "--server.port=0",
                    "--spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
                    "--spring.r2dbc.url=" + database.r2dbcUrl(),
                    "--spring.r2dbc.username=" + database.username(),
                    "--spring.r2dbc.password=" + database.password(),
                    "--spring.flyway.url=" + database.jdbcUrl(),
                    "--spring.flyway.user=" + database.username(),
                    "--spring.flyway.password=" + database.password(),
                    "--agentteams.taskboard.max-tasks-per-team=" + TASKS,
                    "--agentteams.taskboard.plan-max-tasks=" + TASKS,
                    "--logging.level.root=WARN",
                    "--agentteams.outbox.relay-enabled="
                        + System.getProperty("bench.relay", "true")));
    int pool = app.getEnvironment().getProperty("spring.r2dbc.pool.max-size", Integer.class, 10);
    System.out.printf(
        "Claim benchmark: %d claimants (8 members x 2), %d ready tasks per round, R2DBC pool %d,"
            + " embedded Postgres and Kafka, %d cores%n",
        CLAIMANTS, TASKS, pool, Runtime.getRuntime().availableProcessors());
    try {
      Bench bench = new Bench(app);
      int warmUps = Integer.getInteger("bench.max-warmups", MAX_WARMUPS);
      // Every board the service side will claim from is imported now, so that between its rounds
      // the JVM runs nothing but claims (see the class comment).
      Path servicePath = bench.service(warmUps + ROUNDS);
      System.out.printf(
          "%-44s %10s %10s %10s %12s %10s %10s%n",
          "round", "p50 ms", "p99 ms", "claims/s", "conflicts", "CPU busy", "JIT");
      List<Result> rawRounds = bench.side("raw CAS UPDATE", bench.raw(), warmUps);
      List<Result> serviceRounds = bench.side("service claim", servicePath, warmUps);
      Result raw = rawRounds.stream().reduce(Result.empty(), Result::plus);
      Result service = serviceRounds.stream().reduce(Result.empty(), Result::plus);
      System.out.printf(
          "%n%-44s %10s %10s %10s %12s%n",
          "totals over " + ROUNDS + " rounds", "p50 ms", "p99 ms", "claims/s", "conflicts");
      raw.print("raw: single-row compare-and-set UPDATE");
      service.print("service: claim (roster, CAS, outbox event)");
      MeterRegistry meters = app.getBean(MeterRegistry.class);
      DistributionSummary batches = meters.get("agentteams.taskboard.claim.batch.size").summary();
      System.out.printf(
          "%nClaims per statement (group commit): mean %.1f, max %.0f over %d statements%n",
          batches.mean(), batches.max(), batches.count());
      Timer statements = meters.get("agentteams.taskboard.claim.statement.time").timer();
      System.out.printf(
          "Claim statement, sent to answered: mean %.2f ms; a team's statements run one after"
              + " another, so each cycle also holds the answers' and the next claims' processing%n",
          statements.mean(TimeUnit.MILLISECONDS));
      DistributionSummary steps = meters.find("agentteams.outbox.relay.step.size").summary();
      if (steps != null) {
        System.out.printf(
            "Events per relay step: mean %.1f, max %.0f over %d steps%n",
            steps.mean(), steps.max(), steps.count());
      }
      System.out.printf(
          "Ratio: service throughput / raw = %.0f%% (target >= 50%%); p99 service / raw = %.1fx%n",
          100.0 * service.perSecond() / raw.perSecond(), service.p99() / raw.p99());
      // The median round of each side resists one round stalled by a neighbour on the machine.
      double rawMedian = median(rawRounds);
      double serviceMedian = median(serviceRounds);
      System.out.printf(
          "Median rounds: raw %.0f claims/s, service %.0f claims/s, ratio %.0f%%%n",
          rawMedian, serviceMedian, 100 * serviceMedian / rawMedian);
    } finally {
      app.close();
    }
    System.exit(0);
  }

  static double median(List<Result> rounds) {
    List<Double> sorted = rounds.stream().map(Result::perSecond).sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  /** Figures of one or more rounds. */
  record Result(Histogram latency, long claims, long conflicts, long nanos) {
    static Result empty() {
      return new Result(new Histogram(TimeUnit.SECONDS.toNanos(60), 3), 0, 0, 0);
    }

    Result plus(Result other) {
      Histogram merged = latency.copy();
      merged.add(other.latency);
      return new Result(
          merged, claims + other.claims, conflicts + other.conflicts, nanos + other.nanos);
    }

    double perSecond() {
      return claims / (nanos / 1e9);
    }

    double p99() {
      return latency.getValueAtPercentile(99) / 1e6;
    }

    void print(String name) {
      System.out.printf(
          "%-44s %10.2f %10.2f %10.0f %12d%n",
          name, latency.getValueAtPercentile(50) / 1e6, p99(), perSecond(), conflicts);
    }

    void print(String name, double busy, double jit) {
      System.out.printf(
          "%-44s %10.2f %10.2f %10.0f %12d %9.0f%% %9.0f%%%n",
          name,
          latency.getValueAtPercentile(50) / 1e6,
          p99(),
          perSecond(),
          conflicts,
          100 * busy,
          100 * jit);
    }
  }

  /** A team's board of ready tasks and its members as callers. */
  record Board(UUID team, Map<String, Caller> callers, List<Long> tasks) {}

  /** One way of claiming: prepares a round's tasks and claims one of them. */
  interface Path {
    /** Creates {@link #TASKS} ready tasks; returns their ids. */
    List<Long> prepare();

    /** Tries to claim the task at revision 1 as the member: true if won, false if it lost. */
    Mono<Boolean> claim(String member, long id);
  }

  static final class Bench {
    private final DatabaseClient db;
    private final TaskCommands tasks;
    private final PlanCommands plans;
    private final Rosters rosters;
    private final EventCodec codec;
    private final KafkaTemplate<Object, Object> kafka;

    @SuppressWarnings("unchecked")
    Bench(ConfigurableApplicationContext app) {
      db = app.getBean(DatabaseClient.class);
      tasks = app.getBean(TaskCommands.class);
      plans = app.getBean(PlanCommands.class);
      rosters = app.getBean(Rosters.class);
      codec = app.getBean(EventCodec.class);
      kafka = app.getBean(KafkaTemplate.class);
      db.sql(
              "CREATE TABLE IF NOT EXISTS bench_raw_task (id bigint PRIMARY KEY, owner text,"
                  + " revision bigint NOT NULL)")
          .fetch()
          .rowsUpdated()
          .block();
    }

    /**
     * Warms one side up on its own workload until the JIT is quiet, then measures its rounds. The
     * sides do not alternate: Reactor and R2DBC code that both run would be compiled for one side's
     * types and recompiled for the other's at every switch (JFR showed C2 recompiling Reactor
     * operators after class-check traps all through alternating rounds), charging each side for the
     * other; in production a service runs only its own workload.
     */
    List<Result> side(String name, Path path, int warmUps) throws Exception {
      JitActivity.warmUp(name, QUIET_JIT, warmUps, () -> round(name + " (warm-up)", path, false));
      List<Result> rounds = new ArrayList<>();
      for (int round = 1; round <= ROUNDS; round++) {
        rounds.add(round(name + ", round " + round, path, true));
      }
      return rounds;
    }

    Result round(String name, Path path, boolean report) {
      List<Long> ids = path.prepare();
      Histogram latency = new ConcurrentHistogram(TimeUnit.SECONDS.toNanos(60), 3);
      Set<Long> seen = ConcurrentHashMap.newKeySet();
      AtomicLong won = new AtomicLong();
      AtomicLong lost = new AtomicLong();
      CpuUsage cpu = CpuUsage.start();
      JitActivity jit = JitActivity.start();
      long start = System.nanoTime();
      Flux.range(0, CLAIMANTS)
          .flatMap(
              c -> {
                String member = MEMBERS.get(c % MEMBERS.size());
                List<Long> order = new ArrayList<>(ids);
                Collections.shuffle(order, new Random(c * 31L + ids.get(0)));
                return Flux.fromIterable(order)
                    .filter(id -> !seen.contains(id))
                    .concatMap(
                        id -> {
                          long began = System.nanoTime();
                          return path.claim(member, id)
                              .doOnNext(
                                  claimed -> {
                                    latency.recordValue(System.nanoTime() - began);
                                    seen.add(id);
                                    (claimed ? won : lost).incrementAndGet();
                                  });
                        });
              },
              CLAIMANTS)
          .blockLast(Duration.ofMinutes(10));
      long nanos = System.nanoTime() - start;
      if (won.get() != ids.size()) {
        throw new IllegalStateException(
            name + ": " + won.get() + " claims for " + ids.size() + " tasks");
      }
      Result result = new Result(latency, won.get(), lost.get(), nanos);
      if (report) {
        result.print(name, cpu.busySinceStart(), jit.shareSinceStart());
      }
      return result;
    }

    Path raw() {
      return new Path() {
        @Override
        public List<Long> prepare() {
          db.sql("TRUNCATE bench_raw_task").fetch().rowsUpdated().block();
          db.sql(
                  "INSERT INTO bench_raw_task (id, owner, revision)"
                      + " SELECT g, NULL, 1 FROM generate_series(1, :n) g")
              .bind("n", TASKS)
              .fetch()
              .rowsUpdated()
              .block();
          db.sql("VACUUM ANALYZE bench_raw_task").fetch().rowsUpdated().block();
          List<Long> ids = new ArrayList<>();
          for (long id = 1; id <= TASKS; id++) {
            ids.add(id);
          }
          return ids;
        }

        @Override
        public Mono<Boolean> claim(String member, long id) {
          return db.sql(
                  "UPDATE bench_raw_task SET owner = :owner, revision = revision + 1"
                      + " WHERE id = :id AND revision = :expected AND owner IS NULL")
              .bind("owner", member)
              .bind("id", id)
              .bind("expected", 1L)
              .fetch()
              .rowsUpdated()
              .map(rows -> rows == 1);
        }
      };
    }

    /** The real claim, on {@code boards} boards of {@link #TASKS} ready tasks imported now. */
    Path service(int boards) {
      ArrayDeque<Board> prepared = new ArrayDeque<>();
      for (int i = 0; i < boards; i++) {
        prepared.add(board());
      }
      db.sql("VACUUM ANALYZE task").fetch().rowsUpdated().block();
      return new Path() {
        private Board current;

        @Override
        public List<Long> prepare() {
          current = prepared.isEmpty() ? board() : prepared.poll();
          // As the raw side does before each of its rounds: the previous round's dead rows are
          // cleaned up now, so no round shares the machine with an autovacuum of what the rounds
          // before it wrote.
          db.sql("VACUUM task, platform.outbox").fetch().rowsUpdated().block();
          return current.tasks();
        }

        @Override
        public Mono<Boolean> claim(String member, long id) {
          return tasks
              .claim(current.callers().get(member), current.team(), TaskId.of(id), 1)
              .map(outcome -> outcome.task().owner() != null)
              .onErrorResume(
                  DomainFailure.class,
                  problem ->
                      problem.kind() == DomainFailure.Kind.CONFLICT
                          ? Mono.just(false)
                          : Mono.error(problem));
        }
      };
    }

    /** A fresh team whose lead imported a plan of {@link #TASKS} ready tasks. */
    private Board board() {
      UUID team = team();
      Map<String, Caller> callers = callers(team);
      List<PlanNormalizer.Item> items = new ArrayList<>();
      for (int i = 0; i < TASKS; i++) {
        items.add(new PlanNormalizer.Item(null, "Chunk " + i, null, List.of(), List.of(), null));
      }
      List<Long> ids =
          plans.importPlan(callers.get("lead"), team, items, false).block().tasks().stream()
              .map(t -> t.id().value())
              .toList();
      return new Board(team, callers, ids);
    }

    private static Map<String, Caller> callers(UUID team) {
      Map<String, Caller> callers = new java.util.HashMap<>();
      for (String member : MEMBERS) {
        callers.put(member, new Caller.Member("bench-owner", team, member, null));
      }
      return callers;
    }

    /** A fresh team known to the roster projection, so each round starts with an empty board. */
    private UUID team() {
      UUID team = UUID.randomUUID();
      List<RosterMember> members = new ArrayList<>();
      for (int i = 0; i < MEMBERS.size(); i++) {
        members.add(
            new RosterMember(MEMBERS.get(i), "agent-" + i, i == 0, UUID.randomUUID().toString()));
      }
      TeamCreated created =
          new TeamCreated(team.toString(), "bench-owner", "Bench", "Claim", "ready", members, 1);
      kafka.send(
          Topics.TEAM_EVENTS,
          team.toString(),
          codec.write(codec.envelope(created, team.toString(), "bench-owner", 1, null)));
      Awaitility.await("the roster projection learns of the bench team")
          .atMost(Duration.ofSeconds(30))
          .until(() -> rosters.find(team).blockOptional().isPresent());
      return team;
    }
  }
}
