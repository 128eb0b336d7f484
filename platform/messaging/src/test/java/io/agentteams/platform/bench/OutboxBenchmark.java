package io.agentteams.platform.bench;

import io.agentteams.contracts.EventPayload;
import io.agentteams.platform.consumer.ConsumerProperties;
import io.agentteams.platform.consumer.EventListeners;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.outbox.OutboxProperties;
import io.agentteams.platform.outbox.OutboxRelay;
import io.agentteams.platform.outbox.RelayCheckpoint;
import io.agentteams.platform.support.PlatformFixture;
import io.agentteams.platform.test.Arrivals;
import io.agentteams.platform.test.ComposedFloor;
import io.agentteams.platform.test.CpuUsage;
import io.agentteams.platform.test.JitActivity;
import io.agentteams.platform.test.RawKafkaRoundTrip;
import io.agentteams.platform.test.RawPostgresCommits;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Commit-to-processed latency and throughput through the outbox (transaction, relay, Kafka,
 * idempotent consumer) beside the raw floor on the same broker in the same run (KafkaTemplate send
 * to a listener container, which is what {@code @KafkaListener} builds).
 *
 * <p>Latency: one event in flight at a time (closed loop), after a warm-up; raw is timed from the
 * send call to receipt, the outbox from the commit to the end of the consumer's transaction.
 * Throughput: {@code WRITERS} writes in flight at once (non-blocking, as a WebFlux service issues
 * them), each durable before its slot takes the next (raw: the broker's acknowledgement; outbox:
 * the commit), 1 KB events, timed from the first write to the last event processed.
 *
 * <p>Run: {@code ./mvnw -Dbench=outbox -pl platform/messaging -am verify}
 */
public final class OutboxBenchmark {

  static final int WARMUP = 500;
  static final int LATENCY_SAMPLES = 2_000;
  static final int THROUGHPUT_EVENTS = 20_000;
  static final int WRITERS = 16;
  static final String FILLER = "x".repeat(1024 - 200);

  public static void main(String[] args) throws Exception {
    try {
      run();
    } catch (Throwable failure) {
      // Kafka's and Postgres' threads would keep the JVM (and Maven) waiting forever.
      failure.printStackTrace();
      System.exit(1);
    }
  }

  static void run() throws Exception {
    TestInfrastructure infrastructure = TestInfrastructure.shared();
    System.out.println(
        "Outbox benchmark: 1 KB events, embedded Kafka and Postgres on this machine");

    Result raw;
    if (Boolean.getBoolean("bench.outbox-only")) {
      raw = new Result(1, 1, 1);
    } else {
      try (RawPath path = new RawPath(infrastructure)) {
        raw = measure("raw KafkaTemplate -> listener", path);
      }
    }
    Result outbox;
    try (OutboxPath path = new OutboxPath(infrastructure, false)) {
      outbox = measure("outbox (transaction) -> relay -> consumer", path);
    }
    Result oneStatement;
    try (OutboxPath path = new OutboxPath(infrastructure, true)) {
      oneStatement = measure("outbox (one statement) -> relay -> consumer", path);
    }
    double commits =
        RawPostgresCommits.perSecond(
            infrastructure.freshDatabase("bench_raw"), WRITERS, THROUGHPUT_EVENTS);
    System.out.printf(
        "%-42s throughput %8.0f commits/s%n", "raw Postgres: 1 KB INSERT commits", commits);
    ComposedFloor floor = new ComposedFloor(raw.perSecond(), commits);
    // An outbox event does a raw Kafka round trip and a durable commit on the same processors, so
    // its ceiling is the composed floor, not raw Kafka.
    System.out.printf(
        "%nAgainst the floors of this run (latency target: p99 <= 3.0x raw Kafka)%n"
            + "  %s%n"
            + "  change and event in a transaction: p99 %.2fx raw Kafka, throughput %.0f%% of the"
            + " composed floor%n"
            + "  change and event in one statement: p99 %.2fx raw Kafka, throughput %.0f%% of the"
            + " composed floor%n",
        floor.describe(),
        outbox.p99Millis() / raw.p99Millis(),
        floor.percentOf(outbox.perSecond()),
        oneStatement.p99Millis() / raw.p99Millis(),
        floor.percentOf(oneStatement.perSecond()));
    System.exit(0);
  }

  record Result(double p50Millis, double p99Millis, double perSecond) {}

  interface Path extends AutoCloseable {
    /** Writes one event; completes once the write is durable. */
    Mono<Void> write(String id);

    /** Waits until the event with this id was processed; returns when it was, in nanos. */
    long awaitProcessed(String id) throws InterruptedException;

    /** Nanos at which the write counts as started for latency. */
    long startOf(String id);
  }

  static Result measure(String name, Path path) throws Exception {
    // Warm up: full throughput rounds, unmeasured, until one leaves the JIT quiet.
    JitActivity.warmUp(name, 0.05, 3, () -> throughput(name + " (warm-up)", path, false));
    Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
    for (int i = 0; i < WARMUP + LATENCY_SAMPLES; i++) {
      String id = UUID.randomUUID().toString();
      path.write(id).block();
      long processed = path.awaitProcessed(id);
      if (i >= WARMUP) {
        latency.recordValue(processed - path.startOf(id));
      }
    }
    double perSecond = throughput(name, path, true);
    Result result =
        new Result(
            latency.getValueAtPercentile(50) / 1e6,
            latency.getValueAtPercentile(99) / 1e6,
            perSecond);
    System.out.printf(
        "%-42s latency p50 %6.2f ms  p99 %6.2f ms  throughput %8.0f events/s%n",
        name, result.p50Millis(), result.p99Millis(), result.perSecond());
    return result;
  }

  static double throughput(String name, Path path, boolean report) throws Exception {
    List<String> ids =
        Flux.range(0, THROUGHPUT_EVENTS)
            .map(i -> UUID.randomUUID().toString())
            .collectList()
            .block();
    CpuUsage cpu = CpuUsage.start();
    long start = System.nanoTime();
    Flux.fromIterable(ids).flatMap(path::write, WRITERS).blockLast();
    long written = System.nanoTime();
    long last = 0;
    for (String id : ids) {
      last = Math.max(last, path.awaitProcessed(id));
    }
    if (report) {
      System.out.printf(
          "  %s: writes done after %.1f s, last processed after %.1f s; processors busy %.0f%%%n",
          name, (written - start) / 1e9, (last - start) / 1e9, 100 * cpu.busySinceStart());
    }
    for (String id : ids) {
      path.startOf(id);
    }
    return THROUGHPUT_EVENTS / ((last - start) / 1e9);
  }

  static final class RawPath implements Path {
    private final RawKafkaRoundTrip raw;
    private final Map<String, Long> starts = new ConcurrentHashMap<>();

    RawPath(TestInfrastructure infrastructure) {
      raw = new RawKafkaRoundTrip(infrastructure, 4, Duration.ofSeconds(60));
    }

    @Override
    public Mono<Void> write(String id) {
      return Mono.defer(
          () -> {
            starts.put(id, System.nanoTime());
            return Mono.fromFuture(raw.send("team-" + (id.hashCode() & 63), id, FILLER)).then();
          });
    }

    @Override
    public long awaitProcessed(String id) throws InterruptedException {
      return raw.awaitArrival(id);
    }

    @Override
    public long startOf(String id) {
      return starts.remove(id);
    }

    @Override
    public void close() {
      raw.close();
    }
  }

  /** A payload of about 1 KB. */
  public record BenchEvent(String id, String filler) implements EventPayload {
    @Override
    public String eventType() {
      return "BenchEvent";
    }
  }

  static final class OutboxPath implements Path {
    private final PlatformFixture fixture;
    private final OutboxRelay relay;
    private final EventListeners listeners;
    private final Arrivals arrivals = new Arrivals(Duration.ofSeconds(60));
    private final Map<String, Long> commits = new ConcurrentHashMap<>();
    private final String topic = PlatformFixture.topic("bench-outbox");

    private final boolean oneStatement;

    /**
     * @param oneStatement whether each write is a change and its event in one statement ({@link
     *     io.agentteams.platform.outbox.Outbox#appendWithChange}) rather than a transaction around
     *     the append
     */
    OutboxPath(TestInfrastructure infrastructure, boolean oneStatement) {
      this.oneStatement = oneStatement;
      fixture = new PlatformFixture(infrastructure, oneStatement ? "bench1" : "bench");
      fixture
          .db
          .sql("CREATE TABLE IF NOT EXISTS bench_change (id text PRIMARY KEY)")
          .fetch()
          .rowsUpdated()
          .block();
      infrastructure.createTopics(4, List.of(topic, topic + ".DLT"));
      if (Boolean.getBoolean("bench.no-notify")) {
        fixture
            .db
            .sql("DROP TRIGGER outbox_notify ON platform.outbox")
            .fetch()
            .rowsUpdated()
            .block();
      }
      OutboxProperties d = OutboxProperties.defaults();
      relay =
          fixture.relay(
              Boolean.getBoolean("bench.no-notify")
                  ? d.toBuilder()
                      .polling(Duration.ofMillis(5), d.busyPollInterval(), d.idleAfter())
                      .build()
                  : d,
              RelayCheckpoint.NONE);
      listeners =
          fixture.listeners(
              new ConsumerProperties(
                  4,
                  Duration.ofMillis(200),
                  Duration.ofSeconds(5),
                  Duration.ofSeconds(30),
                  Duration.ofDays(14),
                  200),
              List.of(
                  new EventSubscription(
                      "bench",
                      List.of(topic),
                      2,
                      event ->
                          Mono.fromRunnable(
                              () ->
                                  arrivals.arrived(
                                      fixture.codec.data(event, BenchEvent.class).id())))));
      relay.start();
      listeners.start();
      RawKafkaRoundTrip.awaitAssignment(listeners.container("bench"));
    }

    @Override
    public Mono<Void> write(String id) {
      String key = "team-" + (id.hashCode() & 63);
      Mono<?> write =
          oneStatement
              ? fixture
                  .outbox
                  .appendWithChange(
                      "INSERT INTO bench_change (id) VALUES (:id) RETURNING id AS outbox_match",
                      spec -> spec.bind("id", id),
                      row -> row.get("outbox_match", String.class),
                      topic,
                      key,
                      "owner",
                      List.of(new Outbox.RowEvent(id, 1, new BenchEvent(id, FILLER))))
                  .then()
              : fixture.transactions.transactional(
                  fixture.outbox.append(topic, key, "owner", 1, new BenchEvent(id, FILLER)));
      // Stamped before the write starts, as the raw path stamps before its send: the consumer may
      // well finish before the writer has read its commit's answer, and the figure then includes
      // the write's own round trips (it can only be worse for it).
      return Mono.defer(
          () -> {
            commits.put(id, System.nanoTime());
            return write.then();
          });
    }

    @Override
    public long awaitProcessed(String id) throws InterruptedException {
      return arrivals.await(id);
    }

    @Override
    public long startOf(String id) {
      return commits.remove(id);
    }

    @Override
    public void close() throws Exception {
      fixture.close();
    }
  }
}
