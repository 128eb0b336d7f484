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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Moves queued copies into their recipients' inboxes and acknowledges them with {@code
 * MessageDelivered} (one per recipient and step), in the caller's transaction.
 *
 * <p>A recipient's copies are always delivered as a whole prefix of its inbox sequence: delivering
 * copy n delivers every queued copy before it first. So per recipient, delivery follows send order
 * even if an earlier event was lost or dead-lettered, and a copy already delivered (by a
 * redelivered event, the sweeper, or another replica) is never delivered again.
 *
 * <p>The delivery consumer applies a whole poll of events in one transaction. Its events only
 * collect what to deliver; the deliveries and their {@code MessageDelivered} rows are written in
 * one go just before that transaction commits. Appending to the outbox locks the team until the
 * commit, so doing it last keeps the team's senders waiting for as short a time as possible.
 */
@Service
public class Deliveries {

  private static final Object PENDING = new Object();

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

  /**
   * Applies a {@code MessageQueued} event within the current transaction: each recipient's queued
   * copies up to this one are delivered before the transaction commits.
   */
  public Mono<Void> on(MessageQueued queued) {
    UUID teamId = UUID.fromString(queued.teamId());
    return TransactionSynchronizationManager.forCurrentTransaction()
        .doOnNext(
            transaction -> {
              Pending pending = (Pending) transaction.getResource(PENDING);
              if (pending == null) {
                pending = new Pending();
                transaction.bindResource(PENDING, pending);
                transaction.registerSynchronization(new DeliverBeforeCommit(pending));
              }
              for (MessageQueued.Recipient recipient : queued.recipients()) {
                pending.add(teamId, recipient.member(), recipient.sequence());
              }
            })
        .then();
  }

  /**
   * Delivers the member's queued copies up to {@code sequence}, in order, within the current
   * transaction, which then commits without waiting for the disk (as the delivery consumer's do: a
   * lost commit leaves the copies queued for the next sweep).
   *
   * @return how many copies were delivered now (0 when all were already)
   */
  public Mono<Integer> deliverUpTo(UUID teamId, String member, long sequence) {
    return acknowledge(
        store.deliverAll(List.of(new DeliveryStore.Target(teamId, member, sequence))));
  }

  private Mono<Integer> acknowledge(Flux<DeliveryStore.Delivered> delivering) {
    return delivering
        .sort(
            Comparator.comparing(DeliveryStore.Delivered::teamId)
                .thenComparing(DeliveryStore.Delivered::recipient)
                .thenComparingLong(DeliveryStore.Delivered::sequence))
        .collectList()
        .flatMap(
            copies ->
                copies.isEmpty()
                    ? Mono.just(0)
                    : outbox
                        .appendAll(
                            Topics.MAILBOX_EVENTS,
                            byRecipient(copies).stream().map(Deliveries::announcement).toList())
                        .then(afterCommit(copies))
                        .thenReturn(copies.size()));
  }

  /** The copies grouped per (team, recipient), each group in inbox order. */
  private static List<List<DeliveryStore.Delivered>> byRecipient(
      List<DeliveryStore.Delivered> sorted) {
    List<List<DeliveryStore.Delivered>> groups = new ArrayList<>();
    List<DeliveryStore.Delivered> group = new ArrayList<>();
    for (DeliveryStore.Delivered copy : sorted) {
      if (!group.isEmpty()
          && !(group.get(0).teamId().equals(copy.teamId())
              && group.get(0).recipient().equals(copy.recipient()))) {
        groups.add(group);
        group = new ArrayList<>();
      }
      group.add(copy);
    }
    groups.add(group);
    return groups;
  }

  /** One {@code MessageDelivered} per recipient and delivery step, for its copies in order. */
  private static Outbox.Pending announcement(List<DeliveryStore.Delivered> copies) {
    DeliveryStore.Delivered first = copies.get(0);
    long upTo = copies.get(copies.size() - 1).sequence();
    return new Outbox.Pending(
        first.teamId().toString(),
        first.ownerId(),
        upTo,
        new MessageDelivered(
            first.teamId().toString(),
            first.recipient(),
            copies.stream()
                .map(
                    copy ->
                        new MessageDelivered.Copy(
                            copy.messageId().toString(),
                            copy.sequence(),
                            copy.queuedAt().toString(),
                            copy.deliveredAt().toString()))
                .toList(),
            upTo));
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

  /** What a transaction's events asked to deliver: per recipient, the highest sequence. */
  private static final class Pending {
    private final Map<DeliveryStore.Target, Long> upTo = new LinkedHashMap<>();

    void add(UUID teamId, String member, long sequence) {
      upTo.merge(new DeliveryStore.Target(teamId, member, 0), sequence, Math::max);
    }

    List<DeliveryStore.Target> targets() {
      List<DeliveryStore.Target> targets = new ArrayList<>(upTo.size());
      upTo.forEach(
          (key, max) -> targets.add(new DeliveryStore.Target(key.teamId(), key.member(), max)));
      return targets;
    }
  }

  /** Writes the collected deliveries and their events inside the transaction, last thing. */
  private final class DeliverBeforeCommit implements TransactionSynchronization {
    private final Pending pending;

    DeliverBeforeCommit(Pending pending) {
      this.pending = pending;
    }

    @Override
    public Mono<Void> beforeCommit(boolean readOnly) {
      return acknowledge(store.deliverAll(pending.targets())).then();
    }
  }
}
