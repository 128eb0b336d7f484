package io.agentteams.mailbox.message.application;

import io.agentteams.mailbox.message.persistence.DeliveryStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * The safety net of delivery: copies still queued after {@code redelivery-after} (say because their
 * event was dead-lettered while the database was away) are delivered here, one recipient per
 * transaction and in sequence order. Any number of replicas may sweep at once: delivery is
 * idempotent per copy. Each round also measures the backlog. {@link DeliveryLoops} runs a round
 * every {@code sweep-interval}.
 */
@Component
public class DeliverySweeper {

  private static final Logger log = LoggerFactory.getLogger(DeliverySweeper.class);
  private static final int RECIPIENTS_PER_ROUND = 100;

  private final DeliveryStore store;
  private final Deliveries deliveries;
  private final TransactionalOperator transactions;
  private final AtomicLong queued = new AtomicLong();
  private final AtomicLong oldestQueuedMillis = new AtomicLong();
  private final Counter redelivered;

  public DeliverySweeper(
      DeliveryStore store,
      Deliveries deliveries,
      TransactionalOperator transactions,
      MeterRegistry meters) {
    this.store = store;
    this.deliveries = deliveries;
    this.transactions = transactions;
    Gauge.builder("agentteams.mailbox.deliveries.queued", queued, AtomicLong::get)
        .description("Copies queued and not yet delivered into an inbox")
        .register(meters);
    Gauge.builder(
            "agentteams.mailbox.deliveries.oldest.queued.seconds",
            oldestQueuedMillis,
            v -> v.get() / 1000.0)
        .description("How long the oldest queued copy has waited")
        .register(meters);
    this.redelivered =
        Counter.builder("agentteams.mailbox.redelivered")
            .description("Copies the sweeper delivered because their event did not")
            .register(meters);
  }

  /**
   * One round: delivers every recipient's copies queued for longer than {@code age}, then measures
   * the backlog.
   *
   * @return how many copies this round delivered
   */
  public Mono<Long> sweep(Duration age) {
    return store
        .stale(age, RECIPIENTS_PER_ROUND)
        .concatMap(
            stale ->
                transactions.transactional(
                    deliveries.deliverUpTo(stale.teamId(), stale.recipient(), stale.upTo())))
        .reduce(0L, Long::sum)
        .doOnNext(
            count -> {
              if (count > 0) {
                redelivered.increment(count);
                log.info("delivered {} copies that their events had not", count);
              }
            })
        .flatMap(
            count ->
                store
                    .backlog()
                    .doOnNext(
                        backlog -> {
                          queued.set(backlog.queued());
                          oldestQueuedMillis.set(backlog.oldest().toMillis());
                        })
                    .thenReturn(count));
  }
}
