package io.agentteams.platform.outbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Tells writers whether the relays are idle, so that their commits notify, or busy, so that they do
 * not ({@code platform.outbox_relay_state}). A notifying transaction holds a database-wide lock
 * while it commits, so writers notify only while a relay waits for them.
 *
 * <p>After each drain: a relay that published rows says it is busy and looks again after {@code
 * busy-poll-interval} by itself, for rows that writers committed meanwhile. One that found nothing
 * stays busy without polling until {@code idle-after} has passed since it last published — this
 * process's own commits wake it ({@link OutboxCommits}), so a busy relay costs nothing while
 * nothing is written — then says it is idle and looks once more. Going idle takes the writers'
 * advisory lock exclusively, which waits for every writer that saw "busy" (they hold it shared from
 * reading the flag to their commit), so the look after going idle finds their rows and no write is
 * left for the polling safety net (see migration V3). A row written meanwhile by a process without
 * a relay of its own therefore waits at most {@code idle-after}.
 */
final class IdleAdvertisement {

  private static final Logger log = LoggerFactory.getLogger(IdleAdvertisement.class);

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

  private final DatabaseClient db;
  private final TransactionalOperator transactions;
  private final OutboxProperties properties;
  private final RelayWakeUps wakeUps;
  // Whether this relay last told writers it is idle; until it says so, it polls on its own.
  private final AtomicBoolean advertisedIdle = new AtomicBoolean();
  private final Counter stateChanges;
  private volatile long lastPublishedNanos = System.nanoTime();

  IdleAdvertisement(
      DatabaseClient db,
      TransactionalOperator transactions,
      OutboxProperties properties,
      RelayWakeUps wakeUps,
      MeterRegistry meters) {
    this.db = db;
    this.transactions = transactions;
    this.properties = properties;
    this.wakeUps = wakeUps;
    Gauge.builder("agentteams.outbox.relay.idle", advertisedIdle, idle -> idle.get() ? 1 : 0)
        .description(
            "1 while this relay has told writers it is idle (commits notify it), 0 while it polls")
        .register(meters);
    this.stateChanges =
        Counter.builder("agentteams.outbox.relay.state.changes")
            .description("Times this relay told writers it went idle or busy")
            .register(meters);
  }

  /**
   * Decides, after a drain that published {@code published} rows, what the relay says and how it
   * learns of the next rows. A failure to save the state is logged: polling retries.
   */
  Mono<Void> afterDrain(long published) {
    Mono<Void> next;
    if (published > 0) {
      lastPublishedNanos = System.nanoTime();
      next =
          (advertisedIdle.get() ? advertise(false) : Mono.<Void>empty())
              .then(Mono.fromRunnable(wakeUps::soon));
    } else if (advertisedIdle.get()) {
      next = Mono.empty();
    } else if (System.nanoTime() - lastPublishedNanos < properties.idleAfter().toNanos()) {
      // Looks again only when idle-after is up (or a commit or the poll wakes it first).
      Duration left =
          Duration.ofNanos(
              properties.idleAfter().toNanos() - (System.nanoTime() - lastPublishedNanos));
      next = Mono.fromRunnable(() -> wakeUps.after(left));
    } else {
      next = advertise(true).then(Mono.fromRunnable(wakeUps::now));
    }
    return next.onErrorResume(
        e -> {
          log.warn("outbox relay state not saved; polling will retry: {}", e.toString());
          return Mono.empty();
        });
  }

  private Mono<Void> advertise(boolean idle) {
    Mono<Long> update =
        idle
            ? transactions.transactional(
                db.sql(ADVERTISE_IDLE)
                    .bind("namespace", OutboxRelay.RELAY_STATE_LOCK_NAMESPACE)
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
}
