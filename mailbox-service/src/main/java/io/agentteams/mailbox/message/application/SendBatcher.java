package io.agentteams.mailbox.message.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.mailbox.MessageQueued;
import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.mailbox.message.persistence.MessageStore;
import io.agentteams.platform.groupcommit.GroupCommit;
import io.agentteams.platform.outbox.Outbox;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Group commit for sends, across teams. Every send is a transaction that waits for its commit to
 * reach the disk; so while one batch of sends is being written, the sends that arrive queue up and
 * then go together in the next transaction, whatever their teams ({@link GroupCommit}, one lane),
 * each event with the trace of its own send. Nothing waits for a timer: a lone send goes at once,
 * and the batch grows only with contention.
 *
 * <p>A batch keeps the guarantees of a single send: its statement locks the batch's teams in one
 * fixed order and gives a team's messages consecutive sequences in queue order, and its one outbox
 * append writes their {@code MessageQueued} events in that same order before the commit. So
 * replicas batching their own sends side by side stay correct: their batches of a team commit one
 * after the other, as single sends did.
 *
 * <p>Two sends with the same client message id of the same sender in the same team never share a
 * batch: the second waits for the next one, where it finds the first already sent. A send that was
 * sent before (its retry, or a conflicting reuse of its id) writes nothing and does not affect the
 * others; if the batch's transaction fails, every send in it fails with that error and nothing of
 * the batch was written.
 */
@Component
public class SendBatcher {

  private final MessageStore store;
  private final Outbox outbox;
  private final TransactionalOperator transactions;
  private final GroupCommit<AllTeams, Message, MessageStore.Stored> sends;

  public SendBatcher(
      MessageStore store,
      Outbox outbox,
      TransactionalOperator transactions,
      MailboxProperties properties,
      MeterRegistry meters) {
    this.store = store;
    this.outbox = outbox;
    this.transactions = transactions;
    this.sends =
        GroupCommit.writingWith(this::write)
            .maxBatch(properties.sendBatchMax())
            .conflictKey(SendBatcher::idempotencyKey)
            .keepIdleLanes()
            .meters(meters, "agentteams.mailbox.send", "Sends")
            .timeQueueWait()
            .build();
  }

  /**
   * Writes the message, alone or with others, and completes once its batch committed. A send given
   * up before its batch began is not written; once written, it stays.
   *
   * @return the message as stored now, or the one sent before under its client message id
   */
  public Mono<MessageStore.Stored> send(Message message) {
    return sends.submit(AllTeams.LANE, message);
  }

  /** Sends of every team share one lane: one batch is written at a time. */
  private enum AllTeams {
    LANE
  }

  /** What two sends of one batch must not share, or null when the send has no such key. */
  private static @Nullable IdempotencyKey idempotencyKey(Message message) {
    String clientMessageId = message.clientMessageId();
    return clientMessageId == null
        ? null
        : new IdempotencyKey(message.teamId(), message.sender().name(), clientMessageId);
  }

  /** The batch's messages and their events in one transaction. */
  private Mono<?> write(AllTeams lane, GroupCommit.Batch<Message, MessageStore.Stored> batch) {
    return transactions
        .transactional(
            store
                .insertAll(batch.requests())
                .flatMap(stored -> announce(batch, stored).thenReturn(stored)))
        .switchIfEmpty(Mono.error(new IllegalStateException("a batch of sends wrote nothing")))
        .doOnNext(
            stored -> {
              for (int i = 0; i < batch.size(); i++) {
                batch.succeed(i, stored.get(i));
              }
            });
  }

  /** The fresh messages' {@code MessageQueued} events, in queue order, in one append. */
  private Mono<Void> announce(
      GroupCommit.Batch<Message, MessageStore.Stored> batch, List<MessageStore.Stored> stored) {
    List<Outbox.Pending> events = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      MessageStore.Stored outcome = stored.get(i);
      if (!outcome.sentBefore()) {
        MessageStore.Queued queued = outcome.queued();
        Message m = queued.recorded().message();
        events.add(
            new Outbox.Pending(
                m.teamId().toString(),
                m.ownerId(),
                queued.recorded().sequence(),
                queuedEvent(queued),
                outbox.traceOf(batch.context(i))));
      }
    }
    return outbox.appendAll(Topics.MAILBOX_EVENTS, events).then();
  }

  private static MessageQueued queuedEvent(MessageStore.Queued queued) {
    Message m = queued.recorded().message();
    return new MessageQueued(
        m.id().toString(),
        m.teamId().toString(),
        queued.recorded().sequence(),
        m.kind().wire(),
        m.sender().kind().wire(),
        m.sender().name(),
        m.systemKind() == null ? null : m.systemKind().wire(),
        queued.recipients().stream()
            .map(r -> new MessageQueued.Recipient(r.member(), r.sequence()))
            .toList(),
        m.jobId(),
        m.conversationId(),
        m.clientMessageId(),
        m.text(),
        queued.recorded().sentAt().toString());
  }

  /** A sender's client message id in a team. */
  private record IdempotencyKey(UUID teamId, String sender, String clientMessageId) {}
}
