package io.agentteams.platform.outbox;

import io.agentteams.platform.tracing.EventTracing;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * One step of the relay, in one transaction: claim up to {@code lanes-per-step} lanes with {@code
 * FOR UPDATE SKIP LOCKED}, send their oldest pending rows in id order, wait for every
 * acknowledgement, mark the acknowledged prefix published, and commit.
 *
 * <p>The lanes' row locks are held for the whole step, so any number of steps (in this process or
 * in other replicas) run at once while each key's events are still published by one step at a time,
 * in order. A step that dies holds no lock any more (its connection is gone) and its rows are
 * published again by the next: at least once, in order; consumers deduplicate. A row the broker
 * refused is recorded with its error and backs its lane off, doubling per attempt, so the lane's
 * later rows wait behind it while other lanes go on.
 */
final class RelayStep {

  private static final Logger log = LoggerFactory.getLogger(RelayStep.class);

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

  private final DatabaseClient db;
  private final TransactionalOperator transactions;
  private final Producer<String, String> producer;
  private final OutboxProperties properties;
  private final RelayCheckpoint checkpoint;
  private final EventTracing tracing;
  private final Counter published;
  private final AtomicLong publishedHere = new AtomicLong();
  private final Counter failures;
  private final DistributionSummary stepSizes;
  private final Timer lag;

  RelayStep(
      DatabaseClient db,
      TransactionalOperator transactions,
      Producer<String, String> producer,
      OutboxProperties properties,
      RelayCheckpoint checkpoint,
      EventTracing tracing,
      MeterRegistry meters) {
    this.db = db;
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

  /**
   * What one step did.
   *
   * @param published rows published
   * @param mayHaveMore whether another step may find more
   */
  record Outcome(int published, boolean mayHaveMore) {}

  /** Runs one step in its own transaction, bounded by {@code step-timeout}. */
  Mono<Outcome> run() {
    Mono<Outcome> step =
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
                                            new Outcome(
                                                published,
                                                full(rows) || outcome.failed() != null))))
            .defaultIfEmpty(new Outcome(0, false));
    return transactions.transactional(step).timeout(properties.stepTimeout());
  }

  /** Rows published by this relay since it was created. */
  long publishedCount() {
    return publishedHere.get();
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
