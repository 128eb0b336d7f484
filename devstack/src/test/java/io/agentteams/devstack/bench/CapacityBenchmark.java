package io.agentteams.devstack.bench;

import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.DevStackProcess;
import io.agentteams.platform.test.CpuUsage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.HdrHistogram.Recorder;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The node's capacity at agent scale: the embedded stack as the run command starts it (one JVM, its
 * Postgres), under a mixed workload of many teams, stepped up until an operation's p99 passes 100
 * ms. Each team of four members sends messages, claims and releases tasks, edits its public state,
 * and asks a member for work that a scripted worker does; every member holds its event stream. The
 * load is open (operations start on a schedule, and a late start counts in their latency).
 *
 * <pre>./mvnw -B -Dbench=capacity -pl devstack -am verify</pre>
 *
 * <p>Per step it prints the operations per second, their p50 and p99, how long a request took until
 * its worker's completion was accepted, the processors' use, the memory of the stack's JVM and its
 * Postgres, and finally the last step that held. Beside them, two floors measured during the same
 * step on the same machine: the gateway's HTTP round trip without work (an unauthenticated call,
 * refused at once) and a durable single-row commit on the stack's Postgres. An operation is a few
 * of the first plus one or two of the second, so when the floors move the capacity moves with them.
 */
public final class CapacityBenchmark {

  private static final Duration WARM_UP = Duration.ofSeconds(10);
  private static final Duration STEP = Duration.ofSeconds(Long.getLong("bench.step-seconds", 30));
  private static final long TARGET_P99_MILLIS = 100;
  private static final int[] STEPS = {5, 10, 20, 40, 60, 80, 120, 160, 200, 240};

  /** Per team, per second. */
  private static final Map<String, Double> RATES =
      Map.of("message", 1.0, "claim", 0.2, "state", 0.2, "request", 0.1);

  private static final JsonMapper json = JsonMapper.builder().build();

  private final DevStackProcess stack;
  private final Api api;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final ScheduledExecutorService clock = Executors.newScheduledThreadPool(4);
  private final Map<String, Recorder> latencies = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
  private final AtomicLong streamEvents = new AtomicLong();
  private final Map<String, Long> requestedAt = new ConcurrentHashMap<>();
  private final Map<String, Long> completedAt = new ConcurrentHashMap<>();
  private final Recorder requestDone = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
  private final Recorder httpFloor = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
  private final Recorder commitFloor = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
  private final List<Disposable> streams = new ArrayList<>();
  private final List<Team> teams = new ArrayList<>();
  private String owner;

  /** A team of the workload and what its members hold. */
  record Team(
      String id,
      String owner,
      List<String> memberTokens,
      String workerToken,
      long entry,
      List<Long> tasks) {}

  private CapacityBenchmark(DevStackProcess stack) {
    this.stack = stack;
    this.api = new Api(stack.gatewayUrl());
    for (String op : RATES.keySet()) {
      latencies.put(op, new Recorder(TimeUnit.SECONDS.toNanos(60), 3));
      errors.put(op, new AtomicLong());
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("capacity");
    DevStackProcess stack =
        DevStackProcess.launch("capacity", DevStackProcess.freshSettings(dir.resolve("devstack")));
    int status = 0;
    try {
      stack.awaitUp(Duration.ofMinutes(6));
      new CapacityBenchmark(stack).run();
    } catch (Throwable failure) {
      failure.printStackTrace();
      status = 1;
    } finally {
      stack.close();
    }
    // Reactor's and the HTTP client's threads would keep the JVM (and Maven) waiting.
    System.exit(status);
  }

  private void run() {
    System.out.printf(
        "Capacity at agent scale: the embedded stack (run command's JVM settings), %d cores;"
            + " per team per second: %s; one event stream per member, one worker per team;"
            + " %d s per step after %d s of warm-up%n%n",
        Runtime.getRuntime().availableProcessors(), RATES, STEP.toSeconds(), WARM_UP.toSeconds());
    System.out.println(
        "| teams | streams | ops/s offered | messages/s | claims/s | state edits/s | requests/s"
            + " | p50 | p99 (worst operation) | errors | request → completed p99"
            + " | floor: HTTP p99 | floor: commit p99 | processors busy | stack JVM RSS"
            + " | Postgres RSS | held |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    Floors floors = new Floors();
    Integer lastHeld = null;
    for (int target : STEPS) {
      while (teams.size() < target) {
        teams.add(newTeam(teams.size()));
      }
      List<java.util.concurrent.ScheduledFuture<?>> load = startLoad();
      load.addAll(floors.start());
      pause(WARM_UP);
      latencies.values().forEach(Recorder::reset);
      errors.values().forEach(e -> e.set(0));
      List.of(requestDone, httpFloor, commitFloor).forEach(Recorder::reset);
      CpuUsage cpu = CpuUsage.start();
      pause(STEP);
      double busy = cpu.busySinceStart();
      double done = requestDone.getIntervalHistogram().getValueAtPercentile(99) / 1e6;
      double http99 = httpFloor.getIntervalHistogram().getValueAtPercentile(99) / 1e6;
      double commit99 = commitFloor.getIntervalHistogram().getValueAtPercentile(99) / 1e6;
      Map<String, org.HdrHistogram.Histogram> step = new LinkedHashMap<>();
      latencies.forEach((op, recorder) -> step.put(op, recorder.getIntervalHistogram()));
      load.forEach(future -> future.cancel(false));
      org.HdrHistogram.Histogram all = new org.HdrHistogram.Histogram(3);
      step.values().forEach(all::add);
      double worstP99 =
          step.values().stream().mapToDouble(h -> h.getValueAtPercentile(99) / 1e6).max().orElse(0);
      String worstOp =
          step.entrySet().stream()
              .max(
                  (a, b) ->
                      Long.compare(
                          a.getValue().getValueAtPercentile(99),
                          b.getValue().getValueAtPercentile(99)))
              .map(Map.Entry::getKey)
              .orElse("-");
      long failed = errors.values().stream().mapToLong(AtomicLong::get).sum();
      boolean held = worstP99 <= TARGET_P99_MILLIS && failed <= all.getTotalCount() / 100;
      System.out.printf(
          Locale.ROOT,
          "| %d | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f ms | %.1f ms (%s) | %d | %.1f ms"
              + " | %.1f ms | %.1f ms | %.0f %% | %s | %s | %s |%n",
          teams.size(),
          streams.size(),
          teams.size() * RATES.values().stream().mapToDouble(Double::doubleValue).sum(),
          rate(step.get("message")),
          rate(step.get("claim")),
          rate(step.get("state")),
          rate(step.get("request")),
          all.getValueAtPercentile(50) / 1e6,
          worstP99,
          worstOp,
          failed,
          done,
          http99,
          commit99,
          100 * busy,
          megabytes(Memory.rss(stack.pid())),
          megabytes(Memory.postgresRss(stack.postgresData())),
          held ? "yes" : "no");
      if (!held) {
        break;
      }
      lastHeld = teams.size();
    }
    floors.close();
    System.out.printf(
        "%nLast step that held (every operation's p99 <= %d ms, errors <= 1 %%; a request's"
            + " completion is shown, not held to it): %s%n",
        TARGET_P99_MILLIS, lastHeld == null ? "none" : lastHeld + " teams");
  }

  /**
   * The floors, probed ten times a second each while a step runs: the gateway answering an
   * unauthenticated call (its HTTP path with no work behind it) and one durable single-row commit
   * on the stack's Postgres (autocommit, as the services commit).
   */
  private final class Floors implements AutoCloseable {

    private final java.sql.Connection database;
    private final ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor();

    Floors() {
      try {
        database =
            java.sql.DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + stack.postgresPort() + "/postgres",
                "postgres",
                "");
        try (var statement = database.createStatement()) {
          statement.execute("CREATE TABLE IF NOT EXISTS capacity_floor (at timestamptz)");
        }
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException("cannot reach the stack's Postgres for the floor", e);
      }
    }

    List<java.util.concurrent.ScheduledFuture<?>> start() {
      List<java.util.concurrent.ScheduledFuture<?>> probes = new ArrayList<>();
      probes.add(
          clock.scheduleAtFixedRate(
              () -> {
                long start = System.nanoTime();
                send("GET", "/api/v1/teams", "", null)
                    .thenAccept(reply -> httpFloor.recordValue(System.nanoTime() - start));
              },
              0,
              100,
              TimeUnit.MILLISECONDS));
      probes.add(prober.scheduleAtFixedRate(this::commit, 50, 100, TimeUnit.MILLISECONDS));
      return probes;
    }

    private void commit() {
      long start = System.nanoTime();
      try (var insert = database.prepareStatement("INSERT INTO capacity_floor VALUES (now())")) {
        insert.executeUpdate();
        commitFloor.recordValue(System.nanoTime() - start);
      } catch (java.sql.SQLException e) {
        errors.get("message").incrementAndGet();
      }
    }

    @Override
    public void close() {
      prober.shutdownNow();
      try {
        database.close();
      } catch (java.sql.SQLException ignored) {
        // The stack stops next.
      }
    }
  }

  private double rate(org.HdrHistogram.Histogram histogram) {
    return histogram.getTotalCount() / (double) STEP.toSeconds();
  }

  private static String megabytes(long bytes) {
    return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
  }

  private List<java.util.concurrent.ScheduledFuture<?>> startLoad() {
    List<java.util.concurrent.ScheduledFuture<?>> futures = new ArrayList<>();
    for (Team team : teams) {
      futures.add(every("message", team, () -> message(team)));
      futures.add(every("claim", team, () -> claim(team)));
      futures.add(every("state", team, () -> state(team)));
      futures.add(every("request", team, () -> request(team)));
    }
    return futures;
  }

  /** Starts the operation at its rate with a random phase; each start is its scheduled time. */
  private java.util.concurrent.ScheduledFuture<?> every(String op, Team team, Runnable body) {
    long periodMicros = (long) (1e6 / RATES.get(op));
    long phase = ThreadLocalRandom.current().nextLong(periodMicros);
    return clock.scheduleAtFixedRate(body, phase, periodMicros, TimeUnit.MICROSECONDS);
  }

  private void message(Team team) {
    int from = ThreadLocalRandom.current().nextInt(team.memberTokens().size());
    int to = (from + 1) % team.memberTokens().size();
    timed(
        "message",
        () ->
            send(
                "POST",
                "/api/v1/teams/" + team.id() + "/messages",
                team.memberTokens().get(from),
                Map.of("to", "m" + to, "text", "progress note " + System.nanoTime())));
  }

  private void claim(Team team) {
    int member = ThreadLocalRandom.current().nextInt(team.memberTokens().size());
    long task = team.tasks().get(ThreadLocalRandom.current().nextInt(team.tasks().size()));
    String token = team.memberTokens().get(member);
    String path = "/api/v1/teams/" + team.id() + "/tasks/" + task;
    long scheduled = System.nanoTime();
    send("GET", path, token, null)
        .thenCompose(
            read -> {
              if (read.statusCode() != 200) {
                record("claim", scheduled, false);
                return CompletableFuture.completedFuture(read);
              }
              JsonNode current = json.readTree(read.body());
              if (!current.get("owner").isNull()) {
                return CompletableFuture.completedFuture(read);
              }
              return send(
                      "POST",
                      path + "/claim",
                      token,
                      Map.of("expected_revision", current.get("revision").asLong()))
                  .thenCompose(
                      claimed -> {
                        record(
                            "claim",
                            scheduled,
                            claimed.statusCode() == 200 || claimed.statusCode() == 409);
                        if (claimed.statusCode() != 200) {
                          return CompletableFuture.completedFuture(claimed);
                        }
                        long revision =
                            json.readTree(claimed.body()).get("task").get("revision").asLong();
                        return send(
                            "POST",
                            path + "/release",
                            token,
                            Map.of("expected_revision", revision));
                      });
            });
  }

  private void state(Team team) {
    String token = team.memberTokens().get(0);
    String path = "/api/v1/teams/" + team.id() + "/state/" + team.entry();
    long scheduled = System.nanoTime();
    send("GET", path, token, null)
        .thenCompose(
            read ->
                read.statusCode() != 200
                    ? CompletableFuture.completedFuture(read)
                    : send(
                        "PUT",
                        path,
                        token,
                        Map.of(
                            "expected_revision",
                            json.readTree(read.body()).get("entry").get("revision").asLong(),
                            "content",
                            "step " + System.nanoTime())))
        .thenAccept(
            updated ->
                record(
                    "state",
                    scheduled,
                    updated.statusCode() == 200 || updated.statusCode() == 409));
  }

  private void request(Team team) {
    long scheduled = System.nanoTime();
    timed(
        "request",
        () ->
            send(
                    "POST",
                    "/api/v1/teams/" + team.id() + "/requests",
                    team.owner(),
                    Map.of(
                        "recipients",
                        List.of("m1"),
                        "text",
                        "check the numbers",
                        "idempotency_key",
                        "k-" + System.nanoTime()))
                .thenApply(
                    reply -> {
                      if (reply.statusCode() < 300) {
                        for (JsonNode job : json.readTree(reply.body()).get("jobs")) {
                          String id = job.get("id").asString();
                          requestedAt.put(id, scheduled);
                          // The worker can finish before this answer is read.
                          Long completed = completedAt.remove(id);
                          if (completed != null && requestedAt.remove(id) != null) {
                            requestDone.recordValue(completed - scheduled);
                          }
                        }
                      }
                      return reply;
                    }));
  }

  private void timed(String op, Supplier<CompletableFuture<Reply>> call) {
    long scheduled = System.nanoTime();
    call.get().thenAccept(response -> record(op, scheduled, response.statusCode() < 300));
  }

  private void record(String op, long scheduled, boolean ok) {
    latencies.get(op).recordValue(Math.max(0, System.nanoTime() - scheduled));
    if (!ok) {
      errors.get(op).incrementAndGet();
    }
  }

  /** An answer: its status (0 when none came) and body. */
  record Reply(int statusCode, String body) {}

  private CompletableFuture<Reply> send(String method, String path, String token, Object body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + token);
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
    }
    return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
        .thenApply(response -> new Reply(response.statusCode(), response.body()))
        .exceptionally(failure -> new Reply(0, "{}"));
  }

  /** A team of four, each member with its stream open, a worker for m1, tasks and a state entry. */
  private Team newTeam(int number) {
    if (number % 20 == 0) {
      owner = api.ownerToken("capacity-" + number / 20);
    }
    List<Map<String, Object>> roster = new ArrayList<>();
    List<String> agents = new ArrayList<>();
    for (int m = 0; m < 4; m++) {
      String agent = "cap-" + number + "-m" + m;
      api.post(
              "/api/v1/agents",
              owner,
              Map.of("id", agent, "name", agent, "runtime", Map.of("kind", "pull")))
          .ok();
      agents.add(agent);
      roster.add(Map.of("name", "m" + m, "agent_id", agent, "lead", m == 0));
    }
    String id =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of("name", "Capacity " + number, "goal", "Carry load", "members", roster))
            .ok()
            .get("id")
            .asString();
    String teamOwner = owner;
    await()
        .atMost(Duration.ofMinutes(2))
        .until(
            () -> api.get("/api/v1/teams/" + id, teamOwner).ok().get("status").asString(),
            "ready"::equals);
    List<String> tokens = new ArrayList<>();
    for (int m = 0; m < 4; m++) {
      String token = api.memberToken(owner, id, "m" + m);
      tokens.add(token);
      streams.add(
          api.stream("/api/v1/teams/" + id + "/members/m" + m + "/events", token)
              .subscribe(event -> streamEvents.incrementAndGet(), failure -> {}));
    }
    List<Long> tasks = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      tasks.add(
          api.post("/api/v1/teams/" + id + "/tasks", tokens.get(0), Map.of("title", "Task " + t))
              .ok()
              .get("task")
              .get("id")
              .asLong());
    }
    long entry =
        api.post(
                "/api/v1/teams/" + id + "/state",
                tokens.get(0),
                Map.of("request_id", "plan", "kind", "plan", "title", "Plan", "content", "draft"))
            .ok()
            .get("entry")
            .get("id")
            .asLong();
    String worker = api.workerToken(owner, agents.get(1));
    streams.add(work(agents.get(1), worker));
    return new Team(id, owner, tokens, worker, entry, tasks);
  }

  /** The scripted worker: started, then completed, for every job offered. */
  private Disposable work(String agent, String workerToken) {
    Flux<ServerSentEvent<String>> offers =
        api.stream("/api/v1/agents/" + agent + "/jobs/stream", workerToken);
    return offers
        .filter(event -> "job".equals(event.event()))
        .map(event -> json.readTree(event.data()))
        .publishOn(Schedulers.boundedElastic())
        .subscribe(
            offer -> {
              String job = offer.get("job_id").asString();
              String lease = offer.get("lease_token").asString();
              send(
                      "POST",
                      "/api/v1/jobs/" + job + "/events",
                      workerToken,
                      Map.of("type", "started", "lease_token", lease))
                  .thenCompose(
                      started ->
                          send(
                              "POST",
                              "/api/v1/jobs/" + job + "/events",
                              workerToken,
                              Map.of("type", "completed", "lease_token", lease, "answer", "done")))
                  .thenAccept(
                      completed -> {
                        if (completed.statusCode() >= 300) {
                          return;
                        }
                        long now = System.nanoTime();
                        completedAt.put(job, now);
                        Long asked = requestedAt.remove(job);
                        if (asked != null && completedAt.remove(job) != null) {
                          requestDone.recordValue(now - asked);
                        }
                      });
            },
            failure -> {});
  }

  /** Lets the load run on its own schedule for a while; this thread only marks the step's end. */
  private static void pause(Duration duration) {
    long end = System.nanoTime() + duration.toNanos();
    for (long left = duration.toNanos(); left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }

  /** Resident memory of processes, from {@code /proc}. */
  static final class Memory {

    private Memory() {}

    /** A process' resident set in bytes, or -1. */
    static long rss(long pid) {
      try {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
          if (line.startsWith("VmRSS:")) {
            return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
          }
        }
      } catch (IOException | RuntimeException unreadable) {
        return -1;
      }
      return -1;
    }

    /** The resident sets of every Postgres process serving the data folder, summed. */
    static long postgresRss(Path dataDir) {
      try {
        List<String> pid = Files.readAllLines(dataDir.resolve("postmaster.pid"));
        long postmaster = Long.parseLong(pid.get(0).trim());
        return ProcessHandle.of(postmaster)
            .map(p -> rss(p.pid()) + p.children().mapToLong(c -> rss(c.pid())).sum())
            .orElse(-1L);
      } catch (IOException | RuntimeException unreadable) {
        return -1;
      }
    }
  }
}
