package io.agentteams.platform.outbox;

import io.agentteams.platform.consumer.ConsumerProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * Prunes published outbox rows after their retention and processed-event marks after theirs, in
 * small batches (safe with any number of replicas doing the same), and measures the backlog. A
 * periodic loop runs it every {@code prune-interval}.
 */
public final class PlatformHousekeeping {

  private static final String PRUNE_OUTBOX =
      """
      DELETE FROM platform.outbox WHERE id IN (
        SELECT id FROM platform.outbox
        WHERE status = 'PUBLISHED' AND published_at < now() - make_interval(secs => :retention)
        ORDER BY id LIMIT 5000 FOR UPDATE SKIP LOCKED)
      """;

  private static final String PRUNE_PROCESSED =
      """
      DELETE FROM platform.processed_event WHERE ctid IN (
        SELECT ctid FROM platform.processed_event
        WHERE processed_at < now() - make_interval(secs => :retention)
        LIMIT 5000 FOR UPDATE SKIP LOCKED)
      """;

  private static final String BACKLOG =
      """
      SELECT count(*) AS pending,
             coalesce(extract(epoch FROM now() - min(created_at)), 0) AS oldest
      FROM platform.outbox WHERE status = 'PENDING'
      """;

  private final DatabaseClient db;
  private final OutboxProperties outbox;
  private final ConsumerProperties consumer;
  private final AtomicLong pending = new AtomicLong();
  private final AtomicLong oldestPendingMillis = new AtomicLong();

  public PlatformHousekeeping(
      DatabaseClient db,
      OutboxProperties outbox,
      ConsumerProperties consumer,
      MeterRegistry meters) {
    this.db = db;
    this.outbox = outbox;
    this.consumer = consumer;
    Gauge.builder("agentteams.outbox.pending", pending, AtomicLong::get)
        .description("Outbox rows not yet acknowledged by the broker")
        .register(meters);
    Gauge.builder(
            "agentteams.outbox.oldest.pending.seconds", oldestPendingMillis, v -> v.get() / 1000.0)
        .description("Age of the oldest outbox row not yet acknowledged")
        .register(meters);
  }

  /** One round: prune both tables until a batch comes back short, then measure the backlog. */
  public Mono<Void> runOnce() {
    return pruneAll(PRUNE_OUTBOX, outbox.retention())
        .then(pruneAll(PRUNE_PROCESSED, consumer.dedupeRetention()))
        .then(
            db.sql(BACKLOG)
                .map(
                    row -> {
                      pending.set(row.get("pending", Long.class));
                      Number oldest = row.get("oldest", Number.class);
                      oldestPendingMillis.set(
                          oldest == null ? 0 : (long) (oldest.doubleValue() * 1000));
                      return true;
                    })
                .one())
        .then();
  }

  private Mono<Long> pruneAll(String sql, Duration retention) {
    return Mono.defer(
            () ->
                db.sql(sql).bind("retention", (double) retention.toSeconds()).fetch().rowsUpdated())
        .repeat()
        .takeUntil(deleted -> deleted < 5000)
        .reduce(0L, Long::sum);
  }
}
