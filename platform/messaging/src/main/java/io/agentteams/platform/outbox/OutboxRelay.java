package io.agentteams.platform.outbox;

import io.agentteams.platform.notification.PostgresNotifications;
import io.agentteams.platform.tracing.EventTracing;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Publishes outbox rows to Kafka and marks them published only after the broker acknowledged them.
 * This is its drain loop; the parts it drives each keep one promise:
 *
 * <ul>
 *   <li>{@link RelayStep}: claim lanes with {@code FOR UPDATE SKIP LOCKED}, publish each lane's
 *       rows in order (each send a span continuing the row's trace), wait for the acknowledgements,
 *       mark them published, back off a failed lane;
 *   <li>{@link RelayWakeUps}: when to look (asked, this process committed rows, notified on
 *       another's commit, soon again after publishing, polled);
 *   <li>{@link IdleAdvertisement}: telling writers whether to notify (only while the relays idle,
 *       with the advisory-lock handshake that strands no write).
 * </ul>
 *
 * <p>Any number of relays, in this process or in other replicas, may run at once.
 */
public final class OutboxRelay implements AutoCloseable {

  /** The channel writers notify on commit while the relays say they are idle. */
  static final String CHANNEL = "agentteams_outbox";

  /** The advisory lock writers hold shared from reading the relays' state to their commit. */
  static final int RELAY_STATE_LOCK_NAMESPACE = 0x0A7E_0002;

  private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

  private static final String ANY_PENDING =
      "SELECT EXISTS (SELECT 1 FROM platform.outbox WHERE status = 'PENDING')";

  private final DatabaseClient db;
  private final OutboxProperties properties;
  private final RelayStep step;
  private final RelayWakeUps wakeUps;
  private final IdleAdvertisement advertisement;
  private final AtomicBoolean running = new AtomicBoolean();
  private final Counter looks;
  private final Disposable.Swap draining = Disposables.swap();

  /**
   * @param tracing publishes each row in a span that continues the trace stored with it
   * @param notifications the process's notification listener, which wakes an idle relay
   * @param commits this process's commits of outbox rows, which wake the relay at once
   */
  public OutboxRelay(
      ConnectionFactory connectionFactory,
      TransactionalOperator transactions,
      Producer<String, String> producer,
      OutboxProperties properties,
      RelayCheckpoint checkpoint,
      EventTracing tracing,
      PostgresNotifications notifications,
      OutboxCommits commits,
      MeterRegistry meters) {
    this.db = DatabaseClient.create(connectionFactory);
    this.properties = properties;
    this.step = new RelayStep(db, transactions, producer, properties, checkpoint, tracing, meters);
    this.wakeUps = new RelayWakeUps(notifications, commits, properties);
    this.advertisement = new IdleAdvertisement(db, transactions, properties, wakeUps, meters);
    this.looks =
        Counter.builder("agentteams.outbox.relay.looks")
            .description(
                "Times this relay looked for pending rows (woken by a commit, a notification, its"
                    + " own schedule or the poll)")
            .register(meters);
  }

  /** Starts listening for commits and draining; idempotent. */
  public void start() {
    if (!running.compareAndSet(false, true)) {
      return;
    }
    draining.update(
        wakeUps
            .reasons()
            .concatMap(reason -> drain().flatMap(advertisement::afterDrain), 1)
            .subscribe(n -> {}, e -> log.error("outbox relay stopped", e)));
  }

  /** Asks the relay to look for rows now. */
  public void wake() {
    wakeUps.now();
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
        .flatMap(any -> step.run())
        .defaultIfEmpty(new RelayStep.Outcome(0, false))
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
    looks.increment();
    return db.sql(ANY_PENDING).map(row -> Boolean.TRUE.equals(row.get(0, Boolean.class))).one();
  }

  private Mono<Long> drainLanes() {
    return Mono.defer(step::run)
        .repeat()
        .takeUntil(outcome -> !outcome.mayHaveMore())
        .reduce(0L, (sum, outcome) -> sum + outcome.published());
  }

  /** Rows this relay instance published since it was created. */
  public long publishedCount() {
    return step.publishedCount();
  }

  /** Stops listening and draining; a step in flight is cancelled and rolls back. */
  @Override
  public void close() {
    running.set(false);
    draining.dispose();
    wakeUps.close();
  }
}
