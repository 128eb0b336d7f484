package io.agentteams.mailbox.message.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.mailbox.MessageDelivered;
import io.agentteams.contracts.mailbox.MessageQueued;
import io.agentteams.mailbox.message.persistence.DeliveryStore;
import io.agentteams.platform.outbox.Outbox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Moves queued copies into their recipients' inboxes and acknowledges each with {@code
 * MessageDelivered}, in the caller's transaction.
 *
 * <p>A recipient's copies are always delivered as a whole prefix of its inbox sequence: delivering
 * copy n delivers every queued copy before it first. So per recipient, delivery follows send order
 * even if an earlier event was lost or dead-lettered, and a copy already delivered (by a
 * redelivered event, the sweeper, or another replica) is never delivered again.
 */
@Service
public class Deliveries {

  private final DeliveryStore store;
  private final Outbox outbox;
  private final ObjectProvider<DeliveryCheckpoint> checkpoint;
  private final Timer lag;
  private final Counter delivered;

  public Deliveries(
      DeliveryStore store,
      Outbox outbox,
      ObjectProvider<DeliveryCheckpoint> checkpoint,
      MeterRegistry meters) {
    this.store = store;
    this.outbox = outbox;
    this.checkpoint = checkpoint;
    this.lag =
        Timer.builder("agentteams.mailbox.delivery.lag")
            .description("Time from a copy being queued by the send to its delivery into the inbox")
            .publishPercentileHistogram()
            .register(meters);
    this.delivered =
        Counter.builder("agentteams.mailbox.delivered")
            .description("Copies moved into an inbox")
            .register(meters);
  }

  /** Applies a {@code MessageQueued} event: each recipient's queued copies up to this one. */
  public Mono<Void> on(MessageQueued queued) {
    UUID teamId = UUID.fromString(queued.teamId());
    return Flux.fromIterable(queued.recipients())
        .concatMap(recipient -> deliverUpTo(teamId, recipient.member(), recipient.sequence()))
        .then();
  }

  /**
   * Delivers the member's queued copies up to {@code sequence}, in order, within the current
   * transaction.
   *
   * @return how many copies were delivered now (0 when all were already)
   */
  public Mono<Integer> deliverUpTo(UUID teamId, String member, long sequence) {
    return store
        .deliverUpTo(teamId, member, sequence)
        .sort(Comparator.comparingLong(DeliveryStore.Delivered::sequence))
        .collectList()
        .flatMap(
            copies ->
                copies.isEmpty()
                    ? Mono.just(0)
                    : Flux.fromIterable(copies)
                        .concatMap(this::acknowledge)
                        .then(afterCommit(copies))
                        .thenReturn(copies.size()));
  }

  private Mono<Void> acknowledge(DeliveryStore.Delivered copy) {
    return outbox
        .append(
            Topics.MAILBOX_EVENTS,
            copy.teamId().toString(),
            copy.ownerId(),
            copy.sequence(),
            new MessageDelivered(
                copy.messageId().toString(),
                copy.teamId().toString(),
                copy.recipient(),
                copy.sequence(),
                copy.queuedAt().toString(),
                copy.deliveredAt().toString()))
        .then();
  }

  private Mono<Void> afterCommit(List<DeliveryStore.Delivered> copies) {
    return TransactionSynchronizationManager.forCurrentTransaction()
        .doOnNext(
            transaction ->
                transaction.registerSynchronization(
                    new TransactionSynchronization() {
                      @Override
                      public Mono<Void> afterCommit() {
                        delivered.increment(copies.size());
                        for (DeliveryStore.Delivered copy : copies) {
                          lag.record(Duration.between(copy.queuedAt(), copy.deliveredAt()));
                        }
                        return checkpoint
                            .getIfAvailable(() -> DeliveryCheckpoint.NONE)
                            .afterCommitted(copies);
                      }
                    }))
        .then();
  }
}
