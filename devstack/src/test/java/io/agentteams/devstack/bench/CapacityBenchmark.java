package io.agentteams.devstack.bench;

import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.DevStackProcess;
import io.agentteams.platform.test.CpuUsage;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.netty.resources.ConnectionProvider;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The node's capacity at agent scale: the embedded stack as the run command starts it (its JVM
 * options from {@code devstack/run-command.jvm}, one JVM and its Postgres) — or, with {@code
 * -Dbench.mode=processes}, every service in a JVM of its own with the JVM settings of the chart's
 * pods — under the mixed workload of many teams of four, stepped up past the point where it no
 * longer holds.
 *
 * <pre>./mvnw -B -DskipTests -Dbench=capacity -pl devstack -am verify</pre>
 *
 * <p>Per team per second: one message, 0.2 task claims (each released again), 0.2 compare-and-set
 * state edits and 0.1 requests that a scripted pull worker starts and completes; every member holds
 * its event stream and each team's worker its job stream. The load is open: operations start on a
 * schedule, and a late start counts in their latency. Steps go on after the first one that fails
 * the target (every operation's p99 ≤ 100 ms, errors ≤ 1 %) until a p99 passes 500 ms or errors
 * pass 5 %, so the output shows the whole curve.
 *
 * <p>Per step it prints, per operation, the offered and completed rates, p50/p99/p99.9 and errors
 * by kind; the processor time per completed operation (the stack's processes and Postgres's, from
 * {@code /proc}); their memory (proportional set sizes); the stack's heap after collection and its
 * pause p99 (from its GC log); Postgres commits per second; two floors measured in the same step
 * (the gateway's HTTP round trip for a call refused at once, and a durable one-row commit); and the
 * generator's own processor use. Before the step at {@code bench.idle-teams} (50) teams, the
 * stack's idle cost with those teams' streams open.
 *
 * <p>Settings: {@code bench.steps} (team counts, comma-separated), {@code bench.step-seconds} (30),
 * {@code bench.warmup-seconds} (10), {@code bench.jit-warmup-teams} (0: the first step's teams are
 * the JIT warm-up's load; N: N teams of its own, idle after it), {@code bench.mode} ({@code
 * embedded} or {@code processes}), {@code bench.profile} (team counts at which to record the
 * stack's JVM with Flight Recorder and print where its processor time went and which statements
 * Postgres ran; default 5,50; {@code none} for none), {@code bench.hops} (1 in how many operations
 * to trace and break down by hop from the services' spans, exported to this benchmark over OTLP; 0,
 * the default, for none: the exporter costs the stack processor time of its own).
 */
public final class CapacityBenchmark {

  private static final List<Integer> STEPS =
      integers(System.getProperty("bench.steps", "5,10,20,50,100,150,200,250,300,400,500,600,800"));
  private static final Duration STEP = Duration.ofSeconds(Long.getLong("bench.step-seconds", 30));
  private static final Duration WARM_UP =
      Duration.ofSeconds(Long.getLong("bench.warmup-seconds", 10));
  private static final boolean PROCESSES =
      "processes".equals(System.getProperty("bench.mode", "embedded"));
  private static final List<String> PROFILED =
      Arrays.stream(System.getProperty("bench.profile", "5,50").split(","))
          .map(String::trim)
          .toList();
  private static final int TRACE_ONE_IN = Integer.getInteger("bench.hops", 0);
  private static final String ASYNC_PROFILER = System.getProperty("bench.async-profiler", "");
  private static final String EXTRA_JVM_OPTIONS = System.getProperty("bench.stack-jvm", "").trim();
  private static final int IDLE_TEAMS = Integer.getInteger("bench.idle-teams", 50);
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final Duration JIT_WARM_UP_MAX =
      Duration.ofSeconds(Long.getLong("bench.jit-warmup-seconds", 300));
  private static final Duration JIT_WINDOW = Duration.ofSeconds(15);
  private static final int JIT_WARM_UP_TEAMS = Integer.getInteger("bench.jit-warmup-teams", 0);

  /** The warm-up's teams are numbered from here: their owners and agents are their own. */
  private static final int WARM_UP_TEAM_NUMBERS = 1_000_000;

  private static final Duration BACKLOG_PATIENCE = Duration.ofMinutes(5);

  /** How long after its load stops a step may take to work off what it owes and still hold. */
  private static final Duration DRAIN_ALLOWED = Duration.ofSeconds(10);

  private static final double JIT_QUIET = 0.05;

  private static final long HELD_P99_MILLIS = 100;
  private static final long LOOSE_P99_MILLIS = 250;
  private static final long STOP_P99_MILLIS = 500;
  private static final double STOP_ERRORS = 0.05;
  private static final int TEAMS_PER_OWNER = 20;

  /** The chart's pods: heap 75 % of a 768 MiB limit; below 1,792 MB the JVM picks Serial GC. */
  private static final String CHART_JVM_OPTIONS =
      "-Xmx576m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError";

  /** Per team, per second. */
  private static final Map<String, Double> RATES = rates();

  private static final Pattern NOTE = Pattern.compile("progress note (\\d+)");
  private static final JsonMapper json = JsonMapper.builder().build();
  private static final PrintStream out = System.out;

  private final DevStackProcess stack;
  private final StackProcesses processes;
  private final GcLogs gc;
  private final @Nullable StackJit jit;
  private final StackBacklog backlog;
  private final @Nullable FlightRecordings recordings;
  private final @Nullable StackProfile profile;
  private final @Nullable SpanCollector spans;
  private final Api api;
  private final WebClient streamClient;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final ScheduledExecutorService clock = Executors.newScheduledThreadPool(4);
  private final Map<String, Recorder> latencies = new ConcurrentHashMap<>();
  private final Map<String, Map<String, AtomicLong>> errors = new ConcurrentHashMap<>();
  private final AtomicLong streamEvents = new AtomicLong();
  private final AtomicLong streamFailures = new AtomicLong();
  private final AtomicLong operationCounter = new AtomicLong();
  private final Map<String, Long> requestedAt = new ConcurrentHashMap<>();
  private final Map<String, Long> completedAt = new ConcurrentHashMap<>();
  private final Map<Long, Long> notesSent = new ConcurrentHashMap<>();
  private final Recorder requestDone = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
  private final Recorder noteShown = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
  private final Recorder httpFloor = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
  private final Recorder commitFloor = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
  private final List<Disposable> streams = new ArrayList<>();
  private final List<Team> teams = new ArrayList<>();
  private final Map<Integer, String> owners = new ConcurrentHashMap<>();
  private final List<String> summary = new ArrayList<>();

  /** A team of the workload and what its members hold. */
  record Team(
      String id,
      String owner,
      List<String> memberTokens,
      long entry,
      List<Long> tasks,
      List<Disposable> streams) {}

  private CapacityBenchmark(
      DevStackProcess stack, Path work, @Nullable SpanCollector spans, Path gcLogs) {
    this.stack = stack;
    this.processes = new StackProcesses(stack.pid(), stack.postgresData());
    this.gc = new GcLogs(gcLogs);
    this.jit = new StackJit(stack.pid());
    this.backlog = new StackBacklog(stack.postgresPort(), stack.kafkaPort());
    this.recordings =
        PROCESSES || !ASYNC_PROFILER.isBlank() ? null : new FlightRecordings(stack.pid(), work);
    this.profile =
        PROCESSES || ASYNC_PROFILER.isBlank()
            ? null
            : new StackProfile(Path.of(ASYNC_PROFILER), stack.pid(), work);
    this.spans = spans;
    this.api = new Api(stack.gatewayUrl());
    this.streamClient =
        WebClient.builder()
            .baseUrl(stack.gatewayUrl())
            .clientConnector(
                new ReactorClientHttpConnector(
                    reactor.netty.http.client.HttpClient.create(
                        ConnectionProvider.builder("capacity-streams")
                            .maxConnections(20_000)
                            .pendingAcquireMaxCount(-1)
                            .build())))
            .build();
    for (String op : RATES.keySet()) {
      latencies.put(op, new Recorder(TimeUnit.SECONDS.toNanos(120), 3));
      errors.put(op, new ConcurrentHashMap<>());
    }
    errors.put("release", new ConcurrentHashMap<>());
    errors.put("worker report", new ConcurrentHashMap<>());
  }

  public static void main(String[] args) throws Exception {
    Path work = Files.createTempDirectory("capacity");
    Path gcLogs = Files.createDirectories(work.resolve("gc"));
    SpanCollector spans = TRACE_ONE_IN > 0 ? new SpanCollector() : null;
    Map<String, String> settings = DevStackProcess.freshSettings(work.resolve("devstack"));
    settings.put("agentteams.devstack.demo", "false");
    List<String> jvm = new ArrayList<>();
    jvm.add(GcLogs.option(gcLogs));
    jvm.add("-Dagentteams.embedded.postgres.shared_preload_libraries=pg_stat_statements");
    if (!EXTRA_JVM_OPTIONS.isEmpty()) {
      jvm.addAll(List.of(EXTRA_JVM_OPTIONS.split("\\s+")));
    }
    if (PROCESSES) {
      settings.put("agentteams.devstack.mode", "processes");
      settings.put(
          "agentteams.devstack.service-jvm-options",
          CHART_JVM_OPTIONS + " " + GcLogs.option(gcLogs));
    }
    if (spans != null) {
      jvm.add("-Dmanagement.opentelemetry.tracing.export.otlp.endpoint=" + spans.endpoint());
    }
    DevStackProcess stack = DevStackProcess.launch("capacity", settings, jvm);
    int status = 0;
    try {
      stack.awaitUp(Duration.ofMinutes(6));
      new CapacityBenchmark(stack, work, spans, gcLogs).run();
    } catch (Throwable failure) {
      failure.printStackTrace();
      status = 1;
    } finally {
      stack.close();
      if (spans != null) {
        spans.close();
      }
    }
    // Reactor's and the HTTP client's threads would keep the JVM (and Maven) waiting.
    System.exit(status);
  }

  private void run() throws Exception {
    out.printf(
        Locale.ROOT,
        "Capacity at agent scale: %s, %d cores; per team per second: %s; one event stream per"
            + " member and a job stream per team's worker; %d s measured per step after %d s of"
            + " warm-up; stack JVM options: %s%n%n",
        PROCESSES ? "processes mode (chart JVM settings: " + CHART_JVM_OPTIONS + ")" : "embedded",
        Runtime.getRuntime().availableProcessors(),
        RATES,
        STEP.toSeconds(),
        WARM_UP.toSeconds(),
        String.join(" ", Files.readAllLines(DevStackProcess.runCommandJvmOptions()))
            + (EXTRA_JVM_OPTIONS.isEmpty() ? "" : " then " + EXTRA_JVM_OPTIONS));
    try (Floors floors = new Floors();
        StackBacklog owing = backlog) {
      idle("no teams", floors);
      Integer held = null;
      Integer heldLoosely = null;
      if (JIT_WARM_UP_TEAMS > 0) {
        warmUpJit(floors);
      }
      for (int target : STEPS) {
        grow(target);
        if (target == STEPS.get(0) && JIT_WARM_UP_TEAMS == 0) {
          warmUpJit(floors);
        }
        if (target == IDLE_TEAMS) {
          idle(target + " idle teams", floors);
        }
        Step step = measure(target, floors);
        step.print();
        summary.add(step.row());
        if (step.held()) {
          held = target;
        }
        if (step.worstP99Millis() <= LOOSE_P99_MILLIS
            && step.errorShare() <= 0.01
            && step.drained) {
          heldLoosely = target;
        }
        if (step.worstP99Millis() > STOP_P99_MILLIS || step.errorShare() > STOP_ERRORS) {
          break;
        }
      }
      out.println();
      out.println("Summary");
      out.println(
          "| teams | streams | ops/s offered | ops/s completed | worst p99 | worst p99.9 | errors"
              + " | processor per op (stack + Postgres) | stack / Postgres busy | heap after GC"
              + " | GC pause p99 | commits/s | floor: HTTP p99 | floor: commit p99 | generator busy"
              + " | held (p99 ≤ 100 ms, errors ≤ 1 %, nothing owed 10 s after) |");
      out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
      summary.forEach(out::println);
      out.printf(
          "%nLast step held (nothing owed %d s after it) at p99 <= %d ms and errors <= 1 %%: %s;"
              + " at p99 <= %d ms: %s%n",
          DRAIN_ALLOWED.toSeconds(),
          HELD_P99_MILLIS,
          held == null ? "none" : held + " teams",
          LOOSE_P99_MILLIS,
          heldLoosely == null ? "none" : heldLoosely + " teams");
    }
  }

  /**
   * Runs a load until the stack's JIT compiler is quiet (it compiled for at most {@value
   * #JIT_QUIET} of a {@code JIT_WINDOW}) or {@code bench.jit-warmup-seconds} passed: a long-running
   * stack has compiled its hot paths, and the steps should measure that code. The load is that of
   * the first step's teams, or with {@code bench.jit-warmup-teams} that many teams of their own,
   * made for the warm-up and left idle after it with their streams closed (their workers first
   * finish what the load left them), so that the code a busy node runs reaches the optimising
   * compiler before the steps: at a few teams' rate most of it stays in the profiling tier.
   */
  private void warmUpJit(Floors floors) throws Exception {
    if (jit == null || jit.compileMillis() < 0) {
      return;
    }
    List<Team> warming =
        JIT_WARM_UP_TEAMS > 0
            ? makeTeams(WARM_UP_TEAM_NUMBERS, WARM_UP_TEAM_NUMBERS + JIT_WARM_UP_TEAMS)
            : teams;
    List<ScheduledFuture<?>> load = startLoad(warming);
    load.addAll(floors.start());
    long started = System.nanoTime();
    double share = Double.NaN;
    while (System.nanoTime() - started < JIT_WARM_UP_MAX.toNanos()) {
      long compiledBefore = jit.compileMillis();
      long windowStart = System.nanoTime();
      pause(JIT_WINDOW);
      share = (jit.compileMillis() - compiledBefore) / ((System.nanoTime() - windowStart) / 1e6);
      if (share <= JIT_QUIET) {
        break;
      }
    }
    load.forEach(future -> future.cancel(false));
    if (warming != teams) {
      // Their workers finish what the load left them before their streams close.
      StackBacklog.Owed owed = backlog.awaitNone(BACKLOG_PATIENCE);
      if (!owed.none()) {
        out.printf("(the warm-up left %s)%n", owed);
      }
      for (Team team : warming) {
        team.streams().forEach(Disposable::dispose);
        synchronized (streams) {
          streams.removeAll(team.streams());
        }
      }
    }
    out.printf(
        Locale.ROOT,
        "JIT warm-up: %.0f s of %d teams' load; the stack's JIT compiled for %.0f %% of the last"
            + " %d s%s%n%n",
        (System.nanoTime() - started) / 1e9,
        warming.size(),
        100 * share,
        JIT_WINDOW.toSeconds(),
        warming != teams ? " (those teams now idle, their streams closed)" : "");
  }

  /** The stack's processor use with the teams it has, no load, every stream open. */
  private void idle(String what, Floors floors) {
    // What earlier load left (teams being made, a warm-up's queue) is worked off first.
    StackBacklog.Owed owed = backlog.awaitNone(BACKLOG_PATIENCE);
    if (!owed.none()) {
      out.printf("(not idle after %d s: %s)%n", BACKLOG_PATIENCE.toSeconds(), owed);
    }
    pause(Duration.ofSeconds(5));
    boolean profiled = PROFILED.contains("idle") && !teams.isEmpty();
    if (profiled && recordings != null) {
      recordings.start("idle");
    }
    if (profiled && profile != null) {
      profile.start();
    }
    floors.resetStatements();
    StackProcesses.Cpu before = processes.cpu();
    long own = StackProcesses.ownCpuMillis();
    long started = System.nanoTime();
    pause(IDLE);
    double seconds = (System.nanoTime() - started) / 1e9;
    StackProcesses.Cpu used = processes.cpu().minus(before);
    out.printf(
        Locale.ROOT,
        "Idle, %s (%d streams open): stack %.1f %% of one core (its JVMs %.1f %%, Postgres %.1f %%),"
            + " generator %.1f %%%n%n",
        what,
        streams.size(),
        100 * used.totalMillis() / 1000.0 / seconds,
        100 * used.stackMillis() / 1000.0 / seconds,
        100 * used.postgresMillis() / 1000.0 / seconds,
        100 * (StackProcesses.ownCpuMillis() - own) / 1000.0 / seconds);
    if (profiled) {
      out.printf("Where the idle stack's processor time went%n");
      if (recordings != null) {
        recordings.stopAndSummarise("idle", out);
      }
      if (profile != null) {
        profile.stopAndSummarise("idle", out);
      }
      floors.printStatements(IDLE.toSeconds(), "second");
      out.println();
    }
    summary.add(
        String.format(
            Locale.ROOT,
            "| %d idle | %d | 0 | 0 | | | | %.1f %% of one core | | | | | | | | |",
            teams.size(),
            streams.size(),
            100 * used.totalMillis() / 1000.0 / seconds));
    gc.since();
    floors.commits();
  }

  private Step measure(int target, Floors floors) {
    StackBacklog.Owed before = backlog.awaitNone(BACKLOG_PATIENCE);
    if (!before.none()) {
      out.printf("(the step starts owing %s)%n", before);
    }
    List<ScheduledFuture<?>> load = startLoad();
    load.addAll(floors.start());
    pause(WARM_UP);
    latencies.values().forEach(Recorder::reset);
    errors.values().forEach(kinds -> kinds.clear());
    List.of(requestDone, noteShown, httpFloor, commitFloor).forEach(Recorder::reset);
    boolean profiled = PROFILED.contains(Integer.toString(target));
    floors.resetStatements();
    if (profiled && recordings != null) {
      recordings.start("teams-" + target);
    }
    if (profiled && profile != null) {
      profile.start();
    }
    if (spans != null) {
      spans.reset();
    }
    gc.since();
    long commitsBefore = floors.commits();
    StackProcesses.Cpu cpuBefore = processes.cpu();
    java.util.Map<String, Long> byProcessBefore = processes.cpuByProcess();
    long compiledBefore = jit == null ? -1 : jit.compileMillis();
    long ownBefore = StackProcesses.ownCpuMillis();
    long eventsBefore = streamEvents.get();
    CpuUsage machine = CpuUsage.start();
    long started = System.nanoTime();
    pause(STEP);
    double seconds = (System.nanoTime() - started) / 1e9;
    Step step = new Step(target, seconds);
    step.machineBusy = machine.busySinceStart();
    step.cpu = processes.cpu().minus(cpuBefore);
    processes
        .cpuByProcess()
        .forEach(
            (name, millis) ->
                step.byProcess.put(name, millis - byProcessBefore.getOrDefault(name, millis)));
    step.jitShare =
        compiledBefore < 0 ? Double.NaN : (jit.compileMillis() - compiledBefore) / (seconds * 1000);
    step.ownMillis = StackProcesses.ownCpuMillis() - ownBefore;
    step.commits = floors.commits() - commitsBefore;
    step.events = streamEvents.get() - eventsBefore;
    step.gc = gc.since();
    latencies.forEach((op, recorder) -> step.latencies.put(op, recorder.getIntervalHistogram()));
    errors.forEach(
        (op, kinds) ->
            kinds.forEach((kind, count) -> step.errors.put(op + " " + kind, count.get())));
    step.requestDone = requestDone.getIntervalHistogram();
    step.noteShown = noteShown.getIntervalHistogram();
    step.httpFloor = httpFloor.getIntervalHistogram();
    step.commitFloor = commitFloor.getIntervalHistogram();
    step.stackMemory = processes.stackMemory();
    step.postgresMemory = processes.postgresMemory();
    load.forEach(future -> future.cancel(false));
    long stopped = System.nanoTime();
    step.owedAtEnd = backlog.owed();
    step.drained = backlog.awaitNone(DRAIN_ALLOWED).none();
    step.drainSeconds = (System.nanoTime() - stopped) / 1e9;
    if (profiled) {
      out.printf("%nWhere the stack's processor time went at %d teams%n", target);
      if (recordings != null) {
        recordings.stopAndSummarise("teams-" + target, out);
      }
      if (profile != null) {
        profile.stopAndSummarise("teams-" + target, out);
      }
      floors.printStatements(step.completed(), "op");
    }
    if (spans != null) {
      out.printf("%nHops at %d teams (1 in %d operations traced)%n", target, TRACE_ONE_IN);
      // The exporters send in batches every few seconds.
      pause(Duration.ofSeconds(6));
      spans.printBreakdown(out);
    }
    return step;
  }

  /** What one step measured. */
  private final class Step {
    final int teams;
    final double seconds;
    final Map<String, Histogram> latencies = new TreeMap<>();
    final Map<String, Long> errors = new TreeMap<>();
    double machineBusy;
    double jitShare = Double.NaN;
    StackBacklog.Owed owedAtEnd = new StackBacklog.Owed(0, 0, 0);
    boolean drained;
    double drainSeconds;
    StackProcesses.Cpu cpu = new StackProcesses.Cpu(0, 0);
    final java.util.Map<String, Long> byProcess = new java.util.TreeMap<>();
    long ownMillis;
    long commits;
    long events;
    long stackMemory;
    long postgresMemory;
    GcLogs.Since gc = new GcLogs.Since(new Histogram(3), 0, 0);
    Histogram requestDone = new Histogram(3);
    Histogram noteShown = new Histogram(3);
    Histogram httpFloor = new Histogram(3);
    Histogram commitFloor = new Histogram(3);

    Step(int teams, double seconds) {
      this.teams = teams;
      this.seconds = seconds;
    }

    long completed() {
      return latencies.values().stream().mapToLong(Histogram::getTotalCount).sum()
          - errors.values().stream().mapToLong(Long::longValue).sum();
    }

    double errorShare() {
      long all = latencies.values().stream().mapToLong(Histogram::getTotalCount).sum();
      long failed = errors.values().stream().mapToLong(Long::longValue).sum();
      return all == 0 ? 1 : (double) failed / all;
    }

    /** Every operation's p99 within the target, errors within 1 %, and nothing left owing. */
    boolean held() {
      return worstP99Millis() <= HELD_P99_MILLIS && errorShare() <= 0.01 && drained;
    }

    double worstP99Millis() {
      return latencies.values().stream()
          .mapToDouble(h -> h.getValueAtPercentile(99) / 1e6)
          .max()
          .orElse(0);
    }

    String worstOperation() {
      return latencies.entrySet().stream()
          .max(
              (a, b) ->
                  Long.compare(
                      a.getValue().getValueAtPercentile(99), b.getValue().getValueAtPercentile(99)))
          .map(Map.Entry::getKey)
          .orElse("-");
    }

    double worstP999Millis() {
      return latencies.values().stream()
          .mapToDouble(h -> h.getValueAtPercentile(99.9) / 1e6)
          .max()
          .orElse(0);
    }

    double cpuPerOperationMillis() {
      long done = completed();
      return done == 0 ? Double.NaN : (double) cpu.totalMillis() / done;
    }

    void print() {
      out.printf(
          Locale.ROOT,
          "%nStep: %d teams (%d agents, %d streams), %.0f s%n",
          teams,
          teams * 4,
          streams.size(),
          seconds);
      out.println("| operation | offered/s | completed/s | p50 | p99 | p99.9 | max | errors |");
      out.println("|---|---|---|---|---|---|---|---|");
      latencies.forEach(
          (op, h) -> {
            long failed =
                this.errors.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(op + " "))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            out.printf(
                Locale.ROOT,
                "| %s | %.1f | %.1f | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %d |%n",
                op,
                teams * RATES.get(op),
                (h.getTotalCount() - failed) / seconds,
                h.getValueAtPercentile(50) / 1e6,
                h.getValueAtPercentile(99) / 1e6,
                h.getValueAtPercentile(99.9) / 1e6,
                h.getMaxValue() / 1e6,
                failed);
          });
      out.printf(
          Locale.ROOT,
          "Errors by kind: %s%n",
          this.errors.isEmpty() ? "none" : this.errors.toString());
      out.printf(
          Locale.ROOT,
          "Owed when the load stopped: %s; %s%n",
          owedAtEnd,
          drained
              ? String.format(Locale.ROOT, "worked off in %.1f s", drainSeconds)
              : "not worked off within " + DRAIN_ALLOWED.toSeconds() + " s: the step fell behind");
      out.printf(
          Locale.ROOT,
          "Beside them: request → worker's completion accepted p50 %.1f / p99 %.1f ms; message →"
              + " first stream showing it p50 %.1f / p99 %.1f ms; %.0f stream events/s received;"
              + " %d stream failures so far%n",
          requestDone.getValueAtPercentile(50) / 1e6,
          requestDone.getValueAtPercentile(99) / 1e6,
          noteShown.getValueAtPercentile(50) / 1e6,
          noteShown.getValueAtPercentile(99) / 1e6,
          events / seconds,
          streamFailures.get());
      out.printf(
          Locale.ROOT,
          "Processor: %.2f ms per completed operation (stack %.2f, Postgres %.2f); stack %.0f %% /"
              + " Postgres %.0f %% of one core; whole machine %.0f %% busy; generator %.0f %% of"
              + " one core; the stack's JIT compiled for %.0f %% of the step%n",
          cpuPerOperationMillis(),
          completed() == 0 ? Double.NaN : (double) cpu.stackMillis() / completed(),
          completed() == 0 ? Double.NaN : (double) cpu.postgresMillis() / completed(),
          100 * cpu.stackMillis() / 1000.0 / seconds,
          100 * cpu.postgresMillis() / 1000.0 / seconds,
          100 * machineBusy,
          100 * ownMillis / 1000.0 / seconds,
          100 * jitShare);
      if (!byProcess.isEmpty()) {
        StringBuilder line = new StringBuilder("Processor by process (% of one core):");
        byProcess.forEach(
            (name, millis) ->
                line.append(
                    String.format(
                        Locale.ROOT, " %s %.0f %%,", name, 100 * millis / 1000.0 / seconds)));
        out.println(line.substring(0, line.length() - 1));
      }
      out.printf(
          Locale.ROOT,
          "Memory: heap after GC %s (%d collections, pause p99 %.1f ms); proportional set size"
              + " stack %s, Postgres %s; Postgres %.0f commits/s; floors: HTTP p99 %.1f ms, durable commit p99 %.1f"
              + " ms%n",
          megabytes(gc.heapAfterBytes()),
          gc.collections(),
          gc.pauseP99Millis(),
          megabytes(stackMemory),
          megabytes(postgresMemory),
          commits / seconds,
          httpFloor.getValueAtPercentile(99) / 1e6,
          commitFloor.getValueAtPercentile(99) / 1e6);
    }

    String row() {
      long offered = Math.round(teams * RATES.values().stream().mapToDouble(d -> d).sum());
      return String.format(
          Locale.ROOT,
          "| %d | %d | %d | %.1f | %.1f ms (%s) | %.1f ms | %.2f %% | %.2f ms | %.0f %% / %.0f %%"
              + " | %s | %.1f ms | %.0f | %.1f ms | %.1f ms | %.0f %% | %s |",
          teams,
          streams.size(),
          offered,
          completed() / seconds,
          worstP99Millis(),
          worstOperation(),
          worstP999Millis(),
          100 * errorShare(),
          cpuPerOperationMillis(),
          100 * cpu.stackMillis() / 1000.0 / seconds,
          100 * cpu.postgresMillis() / 1000.0 / seconds,
          megabytes(gc.heapAfterBytes()),
          gc.pauseP99Millis(),
          commits / seconds,
          httpFloor.getValueAtPercentile(99) / 1e6,
          commitFloor.getValueAtPercentile(99) / 1e6,
          100 * ownMillis / 1000.0 / seconds,
          held() ? "yes" : drained ? "no" : "no (fell behind)");
    }
  }

  /**
   * The floors, probed ten times a second each while a step runs: the gateway answering an
   * unauthenticated call (its HTTP path with no work behind it) and one durable single-row commit
   * on the stack's Postgres (autocommit, as the services commit). Its connection also reads
   * Postgres's own counters.
   */
  private final class Floors implements AutoCloseable {

    private final Connection database;
    private final Connection statistics;
    private final ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor();
    private boolean statementStatistics;

    Floors() throws SQLException {
      String url = "jdbc:postgresql://127.0.0.1:" + stack.postgresPort() + "/postgres";
      database = DriverManager.getConnection(url, "postgres", "");
      statistics = DriverManager.getConnection(url, "postgres", "");
      try (Statement statement = database.createStatement()) {
        statement.execute("CREATE TABLE IF NOT EXISTS capacity_floor (at timestamptz)");
      }
      try (Statement statement = statistics.createStatement()) {
        statement.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        statementStatistics = true;
      } catch (SQLException notLoaded) {
        out.println("(pg_stat_statements is not loaded: no statement counts)");
      }
    }

    List<ScheduledFuture<?>> start() {
      List<ScheduledFuture<?>> probes = new ArrayList<>();
      probes.add(
          clock.scheduleAtFixedRate(
              () -> {
                long start = System.nanoTime();
                send("GET", "/api/v1/teams", "", null, false)
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
      } catch (SQLException e) {
        failed("floor", "commit");
      }
    }

    /** Commits of every database so far. */
    synchronized long commits() {
      try (Statement statement = statistics.createStatement();
          ResultSet rows =
              statement.executeQuery("SELECT sum(xact_commit)::bigint FROM pg_stat_database")) {
        rows.next();
        return rows.getLong(1);
      } catch (SQLException e) {
        return 0;
      }
    }

    synchronized void resetStatements() {
      if (!statementStatistics) {
        return;
      }
      try (Statement statement = statistics.createStatement()) {
        statement.execute("SELECT pg_stat_statements_reset()");
      } catch (SQLException e) {
        statementStatistics = false;
      }
    }

    /** The statements Postgres ran most often since the reset, per operation or second. */
    synchronized void printStatements(long operations, String unit) {
      if (!statementStatistics || operations == 0) {
        return;
      }
      String sql =
          "SELECT d.datname, s.calls, s.total_exec_time, s.rows,"
              + " left(regexp_replace(s.query, '\\s+', ' ', 'g'), 140)"
              + " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
              + " WHERE d.datname <> 'postgres' ORDER BY s.calls DESC";
      try (Statement statement = statistics.createStatement();
          ResultSet rows = statement.executeQuery(sql)) {
        long calls = 0;
        double millis = 0;
        List<String> lines = new ArrayList<>();
        while (rows.next()) {
          calls += rows.getLong(2);
          millis += rows.getDouble(3);
          if (lines.size() < 25) {
            lines.add(
                String.format(
                    Locale.ROOT,
                    "    %6.2f per %s  %7.3f ms each  %-9s %s",
                    rows.getLong(2) / (double) operations,
                    unit,
                    rows.getDouble(3) / Math.max(1, rows.getLong(2)),
                    rows.getString(1),
                    rows.getString(5)));
          }
        }
        out.printf(
            Locale.ROOT,
            "  Postgres: %.1f statements per %s, %.2f ms of execution per %s; most frequent:%n",
            calls / (double) operations,
            unit,
            millis / operations,
            unit);
        lines.forEach(out::println);
      } catch (SQLException e) {
        out.println("  (statement statistics unreadable: " + e.getMessage() + ")");
      }
    }

    @Override
    public void close() throws SQLException {
      prober.shutdownNow();
      database.close();
      statistics.close();
    }
  }

  private static String megabytes(long bytes) {
    return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
  }

  private List<ScheduledFuture<?>> startLoad() {
    return startLoad(teams);
  }

  private List<ScheduledFuture<?>> startLoad(List<Team> loaded) {
    List<ScheduledFuture<?>> futures = new ArrayList<>();
    for (Team team : loaded) {
      futures.add(every("message", team, () -> message(team)));
      futures.add(every("claim", team, () -> claim(team)));
      futures.add(every("state", team, () -> state(team)));
      futures.add(every("request", team, () -> request(team)));
    }
    return futures;
  }

  /** Starts the operation at its rate with a random phase; each start is its scheduled time. */
  private ScheduledFuture<?> every(String op, Team team, Runnable body) {
    long periodMicros = (long) (1e6 / RATES.get(op));
    long phase = ThreadLocalRandom.current().nextLong(periodMicros);
    return clock.scheduleAtFixedRate(body, phase, periodMicros, TimeUnit.MICROSECONDS);
  }

  private void message(Team team) {
    int from = ThreadLocalRandom.current().nextInt(team.memberTokens().size());
    int to = (from + 1) % team.memberTokens().size();
    long scheduled = System.nanoTime();
    long note = operationCounter.incrementAndGet();
    notesSent.put(note, scheduled);
    send(
            "POST",
            "/api/v1/teams/" + team.id() + "/messages",
            team.memberTokens().get(from),
            Map.of("to", "m" + to, "text", "progress note " + note),
            traced("message"))
        .thenAccept(reply -> record("message", scheduled, reply));
  }

  private void claim(Team team) {
    int member = ThreadLocalRandom.current().nextInt(team.memberTokens().size());
    long task = team.tasks().get(ThreadLocalRandom.current().nextInt(team.tasks().size()));
    String token = team.memberTokens().get(member);
    String path = "/api/v1/teams/" + team.id() + "/tasks/" + task;
    long scheduled = System.nanoTime();
    boolean traced = traced("claim");
    send("GET", path, token, null, traced)
        .thenCompose(
            read -> {
              if (read.statusCode() != 200) {
                record("claim", scheduled, read);
                return CompletableFuture.completedFuture(read);
              }
              JsonNode current = json.readTree(read.body());
              if (!current.get("owner").isNull()) {
                // Another member holds it: no claim to make.
                return CompletableFuture.completedFuture(read);
              }
              return send(
                      "POST",
                      path + "/claim",
                      token,
                      Map.of("expected_revision", current.get("revision").asLong()),
                      traced)
                  .thenCompose(
                      claimed -> {
                        // A conflict is the compare-and-set doing its work, not an error.
                        record(
                            "claim",
                            scheduled,
                            claimed.statusCode() == 409 ? new Reply(200, claimed.body()) : claimed);
                        if (claimed.statusCode() != 200) {
                          return CompletableFuture.completedFuture(claimed);
                        }
                        long revision =
                            json.readTree(claimed.body()).get("task").get("revision").asLong();
                        return send(
                                "POST",
                                path + "/release",
                                token,
                                Map.of("expected_revision", revision),
                                false)
                            .thenApply(
                                released -> {
                                  if (released.statusCode() >= 300) {
                                    failed("release", kind(released));
                                  }
                                  return released;
                                });
                      });
            });
  }

  private void state(Team team) {
    String token = team.memberTokens().get(0);
    String path = "/api/v1/teams/" + team.id() + "/state/" + team.entry();
    long scheduled = System.nanoTime();
    boolean traced = traced("state");
    send("GET", path, token, null, traced)
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
                            "step " + System.nanoTime()),
                        traced))
        .thenAccept(
            updated ->
                record(
                    "state",
                    scheduled,
                    updated.statusCode() == 409 ? new Reply(200, updated.body()) : updated));
  }

  private void request(Team team) {
    long scheduled = System.nanoTime();
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
                "k-" + operationCounter.incrementAndGet()),
            traced("request"))
        .thenAccept(
            reply -> {
              record("request", scheduled, reply);
              if (reply.statusCode() < 300) {
                for (JsonNode job : json.readTree(reply.body()).get("jobs")) {
                  String id = job.get("id").asString();
                  requestedAt.put(id, scheduled);
                  // The worker can finish before this answer is read.
                  Long completed = completedAt.remove(id);
                  if (completed != null && requestedAt.remove(id) != null) {
                    requestDone.recordValue(Math.max(0, completed - scheduled));
                  }
                }
              }
            });
  }

  /** Whether this operation is one of those traced (1 in {@code bench.hops}). */
  private boolean traced(String op) {
    return TRACE_ONE_IN > 0 && ThreadLocalRandom.current().nextInt(TRACE_ONE_IN) == 0;
  }

  private void record(String op, long scheduled, Reply reply) {
    latencies.get(op).recordValue(Math.max(0, System.nanoTime() - scheduled));
    if (reply.statusCode() >= 300 || reply.statusCode() == 0) {
      failed(op, kind(reply));
    }
  }

  private void failed(String op, String kind) {
    errors
        .computeIfAbsent(op, o -> new ConcurrentHashMap<>())
        .computeIfAbsent(kind, k -> new AtomicLong())
        .incrementAndGet();
  }

  private static String kind(Reply reply) {
    return reply.statusCode() == 0 ? "no answer" : Integer.toString(reply.statusCode());
  }

  /** An answer: its status (0 when none came) and body. */
  record Reply(int statusCode, String body) {}

  private CompletableFuture<Reply> send(
      String method, String path, String token, @Nullable Object body, boolean traced) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + token);
    if (traced && spans != null) {
      request.header("traceparent", spans.traceparent(method + " " + operationOf(path)));
    }
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

  /** A path's shape without its ids, naming the call in the hop breakdown. */
  private static String operationOf(String path) {
    return path.replaceAll("/[0-9a-f]{8}-[0-9a-f-]{27}", "/{id}").replaceAll("/\\d+", "/{n}");
  }

  /** Adds teams until there are {@code target}, four at a time. */
  private void grow(int target) throws Exception {
    if (target > teams.size()) {
      teams.addAll(makeTeams(teams.size(), target));
    }
  }

  /** Teams numbered {@code from} (inclusive) to {@code target} (exclusive), four at a time. */
  private List<Team> makeTeams(int from, int target) throws Exception {
    int missing = target - from;
    List<Team> teamsMade = new ArrayList<>();
    long started = System.nanoTime();
    // Four owners' teams at a time, each owner's one after another: an owner's requests share one
    // rate budget, which four builders of one owner's teams would outrun.
    ExecutorService builders = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<Team>>> made = new ArrayList<>();
      for (int first = from;
          first < target;
          first = (first / TEAMS_PER_OWNER + 1) * TEAMS_PER_OWNER) {
        int start = first;
        int end = Math.min(target, (first / TEAMS_PER_OWNER + 1) * TEAMS_PER_OWNER);
        made.add(
            builders.submit(
                () -> {
                  List<Team> owners = new ArrayList<>();
                  for (int n = start; n < end; n++) {
                    owners.add(newTeam(n));
                  }
                  return owners;
                }));
      }
      for (Future<List<Team>> ownersTeams : made) {
        teamsMade.addAll(ownersTeams.get());
      }
    } finally {
      builders.shutdown();
    }
    out.printf(
        Locale.ROOT, "(%d teams made in %.0f s)%n", missing, (System.nanoTime() - started) / 1e9);
    return teamsMade;
  }

  /** A team of four, each member with its stream open, a worker for m1, tasks and a state entry. */
  private Team newTeam(int number) {
    String owner = owners.computeIfAbsent(number / TEAMS_PER_OWNER, this::ownerToken);
    List<Map<String, Object>> roster = new ArrayList<>();
    List<String> agents = new ArrayList<>();
    for (int m = 0; m < 4; m++) {
      String agent = "cap-" + number + "-m" + m;
      setUp(
          () ->
              api.post(
                  "/api/v1/agents",
                  owner,
                  Map.of("id", agent, "name", agent, "runtime", Map.of("kind", "pull"))));
      agents.add(agent);
      roster.add(Map.of("name", "m" + m, "agent_id", agent, "lead", m == 0));
    }
    String id =
        setUp(
                () ->
                    api.post(
                        "/api/v1/teams",
                        owner,
                        Map.of(
                            "name", "Capacity " + number, "goal", "Carry load", "members", roster)))
            .get("id")
            .asString();
    await()
        .atMost(Duration.ofMinutes(2))
        .until(
            () -> setUp(() -> api.get("/api/v1/teams/" + id, owner)).get("status").asString(),
            "ready"::equals);
    List<String> tokens = new ArrayList<>();
    List<Disposable> opened = new ArrayList<>();
    for (int m = 0; m < 4; m++) {
      String member = "m" + m;
      String token =
          setUp(
                  () ->
                      api.post(
                          "/api/v1/teams/" + id + "/members/" + member + "/tokens",
                          owner,
                          Map.of()))
              .get("access_token")
              .asString();
      tokens.add(token);
      opened.add(
          stream("/api/v1/teams/" + id + "/members/m" + m + "/events", token)
              .subscribe(this::sawEvent, failure -> streamFailures.incrementAndGet()));
    }
    List<Long> tasks = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      String title = "Task " + t;
      tasks.add(
          setUp(
                  () ->
                      api.post(
                          "/api/v1/teams/" + id + "/tasks", tokens.get(0), Map.of("title", title)))
              .get("task")
              .get("id")
              .asLong());
    }
    long entry =
        setUp(
                () ->
                    api.post(
                        "/api/v1/teams/" + id + "/state",
                        tokens.get(0),
                        Map.of(
                            "request_id",
                            "plan",
                            "kind",
                            "plan",
                            "title",
                            "Plan",
                            "content",
                            "draft")))
            .get("entry")
            .get("id")
            .asLong();
    String worker =
        setUp(() -> api.post("/api/v1/agents/" + agents.get(1) + "/tokens", owner, Map.of()))
            .get("access_token")
            .asString();
    opened.add(work(agents.get(1), worker));
    synchronized (streams) {
      streams.addAll(opened);
    }
    return new Team(id, owner, tokens, entry, tasks, opened);
  }

  /**
   * A development owner token. Token requests are unauthenticated, so they share one address's
   * budget with the HTTP floor's probes.
   */
  private String ownerToken(int number) {
    return setUp(() -> api.post("/dev/tokens", null, Map.of("owner_id", "capacity-" + number)))
        .get("access_token")
        .asString();
  }

  /**
   * A set-up call's answer; a refusal by the gateway's rate limits (making teams four at a time
   * outruns an owner's budget) is waited out as the answer says, then the call is made again.
   */
  private static JsonNode setUp(Supplier<Api.Response> call) {
    for (int attempt = 0; ; attempt++) {
      Api.Response answer = call.get();
      if (answer.status() != 429 || attempt >= 120) {
        return answer.ok();
      }
      pause(Duration.ofSeconds(answer.body().path("retry_after_seconds").asLong(1)));
    }
  }

  private Flux<ServerSentEvent<String>> stream(String path, String token) {
    return streamClient
        .get()
        .uri(path)
        .header("Authorization", "Bearer " + token)
        .accept(MediaType.TEXT_EVENT_STREAM)
        .retrieve()
        .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {});
  }

  private void sawEvent(ServerSentEvent<String> event) {
    streamEvents.incrementAndGet();
    String data = event.data();
    if (data == null) {
      return;
    }
    Matcher note = NOTE.matcher(data);
    if (note.find()) {
      Long sent = notesSent.remove(Long.parseLong(note.group(1)));
      if (sent != null) {
        noteShown.recordValue(Math.max(0, System.nanoTime() - sent));
      }
    }
  }

  /** The scripted worker: started, then completed, for every job offered. */
  private Disposable work(String agent, String workerToken) {
    return stream("/api/v1/agents/" + agent + "/jobs/stream", workerToken)
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
                      Map.of("type", "started", "lease_token", lease),
                      false)
                  .thenCompose(
                      started ->
                          send(
                              "POST",
                              "/api/v1/jobs/" + job + "/events",
                              workerToken,
                              Map.of("type", "completed", "lease_token", lease, "answer", "done"),
                              false))
                  .thenAccept(
                      completed -> {
                        if (completed.statusCode() >= 300) {
                          failed("worker report", kind(completed));
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
            failure -> streamFailures.incrementAndGet());
  }

  /** Lets the load run on its own schedule for a while; this thread only marks the time. */
  private static void pause(Duration duration) {
    long end = System.nanoTime() + duration.toNanos();
    for (long left = duration.toNanos(); left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }

  private static Map<String, Double> rates() {
    Map<String, Double> rates = new LinkedHashMap<>();
    rates.put("message", 1.0);
    rates.put("claim", 0.2);
    rates.put("state", 0.2);
    rates.put("request", 0.1);
    return rates;
  }

  private static List<Integer> integers(String list) {
    return Arrays.stream(list.split(",")).map(String::trim).map(Integer::valueOf).toList();
  }
}
