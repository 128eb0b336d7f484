package io.agentteams.platform.outbox;

import io.agentteams.platform.tracing.EventTracing;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Wrapped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Publishes outbox rows to Kafka and marks them published only after the broker acknowledged them.
 *
 * <p>One step claims a lane with {@code FOR UPDATE SKIP LOCKED}, publishes the lane's oldest
 * pending rows in id order, waits for every acknowledgement, marks the acknowledged prefix
 * published and commits. The lane's row lock is held for the whole step, so any number of relays
 * (in this process or in other replicas) can run at once while each key's events are still
 * published by one relay at a time, in order. A relay that dies mid-step holds no lock any more
 * (its connection is gone) and its rows are published again by the next step: at least once, in
 * order, and consumers deduplicate.
 *
 * <p>An idle relay wakes on commit through Postgres {@code LISTEN/NOTIFY}; polling every {@code
 * poll-interval} is the safety net. A notifying transaction holds a database-wide lock while it
 * commits, so writers notify only while the relays say they are idle ({@code
 * platform.outbox_relay_state}, see migration V3 for why no write is stranded): a relay that
 * published rows lately says it is busy and looks again every {@code busy-poll-interval}, and goes
 * back to idle after finding nothing for {@code idle-after}.
 */
public final class OutboxRelay implements AutoCloseable {

  static final String CHANNEL = "agentteams_outbox";

  /** The advisory lock writers hold shared from reading the relays' state to their commit. */
  static final int RELAY_STATE_LOCK_NAMESPACE = 0x0A7E_0002;

  private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

  // One statement claims up to :lanes lanes (skipping those another relay holds) and loads their
  // oldest pending rows. The statement's snapshot can predate the commit of a relay that held a
  // lane until just now, so the rows are locked too: a row that relay marked published meanwhile
  // is re-checked against status = 'PENDING' and left out. Losing this step's commit in a crash
  // only republishes rows, which consumers deduplicate, so the step need not wait for its own
  // commit to reach the disk.
  private static final String CLAIM_AND_LOAD =
      """
      WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
      claimed AS (
        SELECT l.lane FROM platform.outbox_lane l, relaxed
        WHERE l.retry_at <= now()
          AND EXISTS (SELECT 1 FROM platform.outbox o WHERE o.lane = l.lane AND o.status = 'PENDING')
        ORDER BY l.last_claimed_at
        LIMIT :lanes
        FOR UPDATE OF l SKIP LOCKED)
      SELECT o.id, o.lane, o.event_id, o.topic, o.message_key, o.event_type, o.payload,
             o.traceparent, o.created_at
      FROM platform.outbox o
      WHERE o.lane IN (SELECT lane FROM claimed) AND o.status = 'PENDING'
      ORDER BY o.id
      LIMIT :limit
      FOR UPDATE OF o
      """;

  private static final String ANY_PENDING =
      "SELECT EXISTS (SELECT 1 FROM platform.outbox WHERE status = 'PENDING')";

  private static final String MARK_AND_RELEASE =
      """
      WITH marked AS (
        UPDATE platform.outbox
        SET status = 'PUBLISHED', published_at = now(), last_attempt_at = now(),
            attempts = attempts + 1, last_error = NULL
        WHERE id = ANY(:ids))
      UPDATE platform.outbox_lane SET last_claimed_at = clock_timestamp()
      WHERE lane = ANY(:lanes)
      """;

  private static final String RECORD_FAILURE =
      """
      UPDATE platform.outbox
      SET attempts = attempts + 1, last_attempt_at = now(), last_error = :error
      WHERE id = :id
      RETURNING attempts
      """;

  private static final String BACK_OFF_LANE =
      """
      UPDATE platform.outbox_lane
      SET retry_at = clock_timestamp() + make_interval(secs => :backoffSeconds)
      WHERE lane = :lane
      """;

  // Waits for every writer that saw "busy" to commit (they hold the lock shared), then lets
  // writers notify again. Durable, so that a database restart does not forget that relays idle.
  private static final String ADVERTISE_IDLE =
      """
      WITH state_lock AS (SELECT pg_advisory_xact_lock(:namespace, 0))
      UPDATE platform.outbox_relay_state SET relays_idle = true, changed_at = now()
      FROM state_lock
      """;

  // Only saves notifications; losing it in a crash costs writers a few needless ones.
  private static final String ADVERTISE_BUSY =
      """
      WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
      UPDATE platform.outbox_relay_state SET relays_idle = false, changed_at = now()
      FROM relaxed
      """;

  private final ConnectionFactory connectionFactory;
  private final DatabaseClient db;
  private final TransactionalOperator transactions;
  private final Producer<String, String> producer;
  private final OutboxProperties properties;
  private final RelayCheckpoint checkpoint;
  private final EventTracing tracing;
  private final Sinks.Many<Boolean> wakeups = Sinks.many().unicast().onBackpressureBuffer();
  private final AtomicBoolean running = new AtomicBoolean();
  private final Disposable.Composite subscriptions = Disposables.composite();
  // Whether this relay last told writers it is idle; until it says so, it polls on its own.
  private final AtomicBoolean advertisedIdle = new AtomicBoolean();
  private final Disposable.Swap nextLook = Disposables.swap();
  private volatile long lastPublishedNanos = System.nanoTime();
  private final Counter published;
  private final AtomicLong publishedHere = new AtomicLong();
  private final Counter failures;
  private final Counter stateChanges;
  private final DistributionSummary stepSizes;
  private final Timer lag;

  public OutboxRelay(
      ConnectionFactory connectionFactory,
      TransactionalOperator transactions,
      Producer<String, String> producer,
      OutboxProperties properties,
      RelayCheckpoint checkpoint,
      EventTracing tracing,
      MeterRegistry meters) {
    this.connectionFactory = connectionFactory;
    this.db = DatabaseClient.create(connectionFactory);
    this.transactions = transactions;
    this.producer = producer;
    this.properties = properties;
    this.checkpoint = checkpoint;
    this.tracing = tracing;
    this.published =
        Counter.builder("agentteams.outbox.published")
            .description("Outbox rows published and acknowledged by the broker")
            .register(meters);
    this.failures =
        Counter.builder("agentteams.outbox.publish.failures")
            .description("Outbox publish attempts that failed and will be retried")
            .register(meters);
    Gauge.builder("agentteams.outbox.relay.idle", advertisedIdle, idle -> idle.get() ? 1 : 0)
        .description(
            "1 while this relay has told writers it is idle (commits notify it), 0 while it polls")
        .register(meters);
    this.stateChanges =
        Counter.builder("agentteams.outbox.relay.state.changes")
            .description("Times this relay told writers it went idle or busy")
            .register(meters);
    this.stepSizes =
        DistributionSummary.builder("agentteams.outbox.relay.step.size")
            .description("Rows a relay step published: few per step means each row pays a step")
            .register(meters);
    this.lag =
        Timer.builder("agentteams.outbox.lag")
            .description("Time from an outbox row's transaction to the broker's acknowledgement")
            .publishPercentileHistogram()
            .register(meters);
  }

  /** Starts listening for commits and draining; idempotent. */
  public void start() {
    if (!running.compareAndSet(false, true)) {
      return;
    }
    subscriptions.add(
        listenForCommits().subscribe(n -> wake(), e -> log.error("outbox listener stopped", e)));
    subscriptions.add(
        Flux.merge(
                wakeups.asFlux(),
                Flux.interval(Duration.ZERO, properties.pollInterval()).map(tick -> true))
            .onBackpressureLatest()
            .concatMap(signal -> cycle(), 1)
            .subscribe(n -> {}, e -> log.error("outbox relay stopped", e)));
  }

  /**
   * Drains, then decides how the relay learns of the next rows: a relay that published rows says it
   * is busy and looks again soon by itself; one that found nothing for {@code idle-after} says it
   * is idle, so that commits notify it, and looks once more for rows whose writers saw it busy.
   */
  private Mono<Long> cycle() {
    return drain()
        .flatMap(
            published -> {
              if (published > 0) {
                lastPublishedNanos = System.nanoTime();
                return (advertisedIdle.get() ? advertise(false) : Mono.<Void>empty())
                    .then(Mono.fromRunnable(this::lookAgainSoon))
                    .thenReturn(published);
              }
              if (advertisedIdle.get()) {
                return Mono.just(0L);
              }
              if (System.nanoTime() - lastPublishedNanos < properties.idleAfter().toNanos()) {
                lookAgainSoon();
                return Mono.just(0L);
              }
              return advertise(true).then(Mono.fromRunnable(this::wake)).thenReturn(0L);
            })
        .onErrorResume(
            e -> {
              log.warn("outbox relay state not saved; polling will retry: {}", e.toString());
              return Mono.just(0L);
            });
  }

  private Mono<Void> advertise(boolean idle) {
    Mono<Long> update =
        idle
            ? transactions.transactional(
                db.sql(ADVERTISE_IDLE)
                    .bind("namespace", RELAY_STATE_LOCK_NAMESPACE)
                    .fetch()
                    .rowsUpdated())
            : transactions.transactional(db.sql(ADVERTISE_BUSY).fetch().rowsUpdated());
    return update
        .doOnSuccess(
            updated -> {
              advertisedIdle.set(idle);
              stateChanges.increment();
            })
        .then();
  }

  private void lookAgainSoon() {
    if (running.get()) {
      nextLook.update(Mono.delay(properties.busyPollInterval()).subscribe(tick -> wake()));
    }
  }

  /** Asks the relay to look for rows now. */
  public void wake() {
    wakeups.tryEmitNext(Boolean.TRUE);
  }

  /**
   * Publishes until no claimable lane has pending rows.
   *
   * @return the number of rows published
   */
  public Mono<Long> drain() {
    // A look that finds nothing costs one query, not a transaction. Then one step; the other
    // workers join only when there is more than one step's worth, so a relay looking often at a
    // trickle of rows does not send empty claims in parallel.
    return anyPending()
        .filter(Boolean::booleanValue)
        .flatMap(any -> step())
        .defaultIfEmpty(new Step(0, false))
        .flatMap(
            first ->
                first.mayHaveMore()
                    ? Flux.range(0, properties.concurrency())
                        .flatMap(worker -> drainLanes())
                        .reduce((long) first.published(), Long::sum)
                    : Mono.just((long) first.published()))
        .onErrorResume(
            e -> {
              log.warn("outbox drain failed; polling will retry: {}", e.toString());
              return Mono.just(0L);
            });
  }

  private Mono<Boolean> anyPending() {
    return db.sql(ANY_PENDING).map(row -> Boolean.TRUE.equals(row.get(0, Boolean.class))).one();
  }

  private Mono<Long> drainLanes() {
    return Mono.defer(this::step)
        .repeat()
        .takeUntil(step -> !step.mayHaveMore())
        .reduce(0L, (sum, step) -> sum + step.published());
  }

  /**
   * One step: claim up to {@code lanes-per-step} lanes, publish their oldest pending rows in id
   * order, mark the acknowledged ones, commit.
   */
  Mono<Step> step() {
    Mono<Step> step =
        claimAndLoad()
            .filter(rows -> !rows.isEmpty())
            .flatMap(
                rows ->
                    publish(rows)
                        .flatMap(
                            outcome ->
                                settle(lanesOf(rows), outcome)
                                    .map(
                                        published ->
                                            new Step(
                                                published,
                                                full(rows) || outcome.failed() != null))))
            .defaultIfEmpty(new Step(0, false));
    return transactions.transactional(step).timeout(properties.stepTimeout());
  }

  /**
   * Whether a step may have left rows behind: it claimed as many lanes as it may (others may have
   * rows too) or loaded a whole batch. Otherwise every claimable lane's rows were in it. (A step
   * whose publish failed may have left rows of other lanes too; its failed lane backs off, so the
   * next step does not claim it again.)
   */
  private boolean full(List<OutboxRow> rows) {
    return rows.size() >= properties.batchSize()
        || lanesOf(rows).size() >= properties.lanesPerStep();
  }

  /**
   * What one step did.
   *
   * @param published rows published
   * @param mayHaveMore whether another step may find more
   */
  record Step(int published, boolean mayHaveMore) {}

  private static List<Short> lanesOf(List<OutboxRow> rows) {
    return rows.stream().map(OutboxRow::lane).distinct().toList();
  }

  private Mono<List<OutboxRow>> claimAndLoad() {
    return db.sql(CLAIM_AND_LOAD)
        .bind("lanes", properties.lanesPerStep())
        .bind("limit", properties.batchSize())
        .map(
            row ->
                new OutboxRow(
                    row.get("id", Long.class),
                    row.get("lane", Short.class),
                    row.get("topic", String.class),
                    row.get("message_key", String.class),
                    row.get("event_id", UUID.class).toString(),
                    row.get("event_type", String.class),
                    row.get("payload", String.class),
                    row.get("traceparent", String.class),
                    row.get("created_at", OffsetDateTime.class).toInstant()))
        .all()
        .collectList();
  }

  /** Sends every row in order, then waits for all acknowledgements. */
  private Mono<PublishOutcome> publish(List<OutboxRow> rows) {
    return Mono.fromCallable(() -> sendInOrder(rows))
        .subscribeOn(Schedulers.boundedElastic())
        .flatMap(
            futures ->
                Mono.fromFuture(
                        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                            .handle((ignored, error) -> futures))
                    .map(done -> PublishOutcome.of(rows, done)));
  }

  private List<CompletableFuture<RecordMetadata>> sendInOrder(List<OutboxRow> rows) {
    List<CompletableFuture<RecordMetadata>> futures = new ArrayList<>(rows.size());
    for (OutboxRow row : rows) {
      CompletableFuture<RecordMetadata> future = new CompletableFuture<>();
      futures.add(future);
      // A span per send, child of the change's span stored with the row; its own context goes
      // into the record's headers for the consumers.
      EventTracing.Publish publish =
          tracing.publishing(row.traceparent(), row.topic(), row.eventType(), row.eventId());
      try {
        ProducerRecord<String, String> record =
            new ProducerRecord<>(row.topic(), row.key(), row.payload());
        record.headers().add(header("event_id", row.eventId()));
        record.headers().add(header("event_type", row.eventType()));
        publish.writeHeaders((name, value) -> record.headers().add(header(name, value)));
        producer.send(
            record,
            (metadata, error) -> {
              publish.end(error);
              if (error != null) {
                future.completeExceptionally(error);
              } else {
                lag.record(Duration.between(row.createdAt(), Instant.now()));
                future.complete(metadata);
              }
            });
      } catch (RuntimeException e) {
        publish.end(e);
        future.completeExceptionally(e);
        // Later rows of this lane must not overtake the one that failed.
        break;
      }
    }
    return futures;
  }

  private static RecordHeader header(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }

  private Mono<Integer> settle(List<Short> lanes, PublishOutcome outcome) {
    List<Long> acknowledged = outcome.acknowledgedIds();
    Mono<Long> markAndRelease =
        checkpoint
            .afterAcknowledged(acknowledged)
            .then(
                db.sql(MARK_AND_RELEASE)
                    .bind("ids", acknowledged.toArray(Long[]::new))
                    .bind("lanes", lanes.toArray(Short[]::new))
                    .fetch()
                    .rowsUpdated());
    Mono<Long> backOffFailedLane =
        outcome.failed() == null
            ? Mono.empty()
            : db.sql(RECORD_FAILURE)
                .bind("id", outcome.failed().id())
                .bind("error", describe(outcome.error()))
                .map(row -> row.get("attempts", Integer.class))
                .one()
                .flatMap(
                    attempts ->
                        db.sql(BACK_OFF_LANE)
                            .bind("lane", outcome.failed().lane())
                            .bind("backoffSeconds", backoffSeconds(attempts))
                            .fetch()
                            .rowsUpdated());
    return markAndRelease
        .then(backOffFailedLane)
        .then(
            Mono.fromRunnable(
                () -> {
                  published.increment(acknowledged.size());
                  publishedHere.addAndGet(acknowledged.size());
                  stepSizes.record(acknowledged.size());
                  if (outcome.failed() != null) {
                    failures.increment();
                    log.warn(
                        "outbox row {} ({}) not acknowledged; lane {} retries later: {}",
                        outcome.failed().id(),
                        outcome.failed().eventType(),
                        outcome.failed().lane(),
                        describe(outcome.error()));
                  }
                }))
        .thenReturn(acknowledged.size());
  }

  private double backoffSeconds(int attempts) {
    long base = properties.retryBackoff().toMillis();
    long millis = base << Math.min(attempts - 1, 20);
    return Math.min(millis, properties.maxRetryBackoff().toMillis()) / 1000.0;
  }

  private static String describe(@Nullable Throwable error) {
    if (error == null) {
      return "unknown";
    }
    String text = error.getClass().getSimpleName() + ": " + error.getMessage();
    return text.length() > 2000 ? text.substring(0, 2000) : text;
  }

  /** Holds a connection that listens for commit notifications, reconnecting when it drops. */
  private Flux<Boolean> listenForCommits() {
    ConnectionFactory direct = unwrap(connectionFactory);
    return Flux.usingWhen(
            Mono.from(direct.create()),
            connection -> {
              PostgresqlConnection postgres = (PostgresqlConnection) connection;
              return postgres
                  .createStatement("LISTEN " + CHANNEL)
                  .execute()
                  .flatMap(result -> result.getRowsUpdated())
                  .then(Mono.fromRunnable(this::wake))
                  .thenMany(postgres.getNotifications().map(notification -> Boolean.TRUE));
            },
            Connection::close)
        .retryWhen(
            Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200))
                .maxBackoff(Duration.ofSeconds(10))
                .doBeforeRetry(
                    signal ->
                        log.warn("outbox listener reconnecting: {}", signal.failure().toString())))
        .repeat(running::get);
  }

  private static ConnectionFactory unwrap(ConnectionFactory factory) {
    ConnectionFactory current = factory;
    while (current instanceof Wrapped<?> wrapped
        && wrapped.unwrap() instanceof ConnectionFactory inner) {
      current = inner;
    }
    return current;
  }

  /** Rows this relay instance published since it was created. */
  public long publishedCount() {
    return publishedHere.get();
  }

  /** Stops listening and draining; a step in flight is cancelled and rolls back. */
  @Override
  public void close() {
    running.set(false);
    subscriptions.dispose();
    nextLook.dispose();
  }

  record OutboxRow(
      long id,
      short lane,
      String topic,
      String key,
      String eventId,
      String eventType,
      String payload,
      @Nullable String traceparent,
      Instant createdAt) {}

  /** Which rows the broker acknowledged: a prefix, up to the first that failed. */
  record PublishOutcome(
      List<OutboxRow> acknowledgedRows, @Nullable OutboxRow failed, @Nullable Throwable error) {

    static PublishOutcome of(
        List<OutboxRow> rows, List<CompletableFuture<RecordMetadata>> futures) {
      List<OutboxRow> acknowledged = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        if (i >= futures.size()) {
          return new PublishOutcome(acknowledged, rows.get(i), null);
        }
        CompletableFuture<RecordMetadata> future = futures.get(i);
        if (future.isCompletedExceptionally()) {
          Throwable error = future.handle((ok, e) -> e).join();
          return new PublishOutcome(acknowledged, rows.get(i), error);
        }
        acknowledged.add(rows.get(i));
      }
      return new PublishOutcome(acknowledged, null, null);
    }

    List<Long> acknowledgedIds() {
      return acknowledgedRows.stream().map(OutboxRow::id).toList();
    }
  }
}
