package io.agentteams.mailbox.message.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.mailbox.MessageQueued;
import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.mailbox.message.persistence.MessageStore;
import io.agentteams.platform.event.TraceContext;
import io.agentteams.platform.outbox.Outbox;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Group commit for sends, across teams. Every send is a transaction that waits for its commit to
 * reach the disk; so while one batch of sends is being written, the sends that arrive queue up and
 * then go together in the next transaction, whatever their teams. Nothing waits for a timer: a lone
 * send goes at once, and the batch grows only with contention.
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
  private final int maxBatch;
  private final DistributionSummary batchSizes;
  private final Timer queueWait;
  private final Timer batchTime;

  /** Sends waiting for a batch, in arrival order; {@code busy} while a batch is written. */
  private final ArrayDeque<Request> queue = new ArrayDeque<>();

  private boolean busy;

  public SendBatcher(
      MessageStore store,
      Outbox outbox,
      TransactionalOperator transactions,
      MailboxProperties properties,
      MeterRegistry meters) {
    this.store = store;
    this.outbox = outbox;
    this.transactions = transactions;
    this.maxBatch = properties.sendBatchMax();
    this.batchSizes =
        DistributionSummary.builder("agentteams.mailbox.send.batch.size")
            .description("Sends written together in one transaction")
            .register(meters);
    this.queueWait =
        Timer.builder("agentteams.mailbox.send.queue.wait")
            .description("Time from a send being queued to the start of the batch that writes it")
            .register(meters);
    this.batchTime =
        Timer.builder("agentteams.mailbox.send.batch.time")
            .description("Time to write a batch of sends and commit it")
            .register(meters);
    Gauge.builder("agentteams.mailbox.send.queued", this, SendBatcher::waiting)
        .description("Sends waiting for a batch")
        .register(meters);
  }

  /**
   * Writes the message, alone or with others, and completes once its batch committed.
   *
   * @return the message as stored now, or the one sent before under its client message id
   */
  public Mono<MessageStore.Stored> send(Message message) {
    return Mono.deferContextual(
        context -> {
          Request request =
              new Request(message, outbox.traceOf(context), System.nanoTime(), Sinks.one());
          boolean start;
          synchronized (queue) {
            queue.add(request);
            start = !busy;
            busy = true;
          }
          if (start) {
            next();
          }
          // A send given up before its batch began is not written; once written, it stays.
          return request.result().asMono().doOnCancel(() -> withdraw(request));
        });
  }

  /**
   * A send waiting for its batch.
   *
   * @param message the message, composed and checked
   * @param trace the trace of the request that sent it, for its event
   * @param queuedAt when it was queued, {@link System#nanoTime()}
   * @param result completes with the outcome of its batch
   */
  private record Request(
      Message message,
      @Nullable TraceContext trace,
      long queuedAt,
      Sinks.One<MessageStore.Stored> result) {

    /** What two sends of one batch must not share, or null when the send has no such key. */
    @Nullable IdempotencyKey idempotencyKey() {
      String clientMessageId = message.clientMessageId();
      return clientMessageId == null
          ? null
          : new IdempotencyKey(message.teamId(), message.sender().name(), clientMessageId);
    }
  }

  private int waiting() {
    synchronized (queue) {
      return queue.size();
    }
  }

  private void withdraw(Request request) {
    synchronized (queue) {
      queue.remove(request);
    }
  }

  /** Writes the next batch, or goes idle when nothing waits. */
  private void next() {
    List<Request> batch = new ArrayList<>();
    synchronized (queue) {
      Set<IdempotencyKey> keys = new HashSet<>();
      Iterator<Request> waiting = queue.iterator();
      while (waiting.hasNext() && batch.size() < maxBatch) {
        Request request = waiting.next();
        IdempotencyKey key = request.idempotencyKey();
        if (key == null || keys.add(key)) {
          batch.add(request);
          waiting.remove();
        }
      }
      if (batch.isEmpty()) {
        busy = false;
        return;
      }
    }
    write(batch);
  }

  private void write(List<Request> batch) {
    batchSizes.record(batch.size());
    long started = System.nanoTime();
    batch.forEach(r -> queueWait.record(started - r.queuedAt(), TimeUnit.NANOSECONDS));
    List<Message> messages = batch.stream().map(Request::message).toList();
    // Deferred, so that even a failure while building the statements reaches the batch's callers
    // and lets the queue move on. It runs without any caller's context: each event gets the trace
    // of its own request.
    Mono.defer(
            () ->
                transactions.transactional(
                    store
                        .insertAll(messages)
                        .flatMap(stored -> announce(batch, stored).thenReturn(stored))))
        .switchIfEmpty(Mono.error(new IllegalStateException("a batch of sends wrote nothing")))
        .doOnTerminate(() -> batchTime.record(System.nanoTime() - started, TimeUnit.NANOSECONDS))
        .subscribe(
            stored -> {
              for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result().tryEmitValue(stored.get(i));
              }
              next();
            },
            error -> {
              batch.forEach(request -> request.result().tryEmitError(error));
              next();
            });
  }

  /** The fresh messages' {@code MessageQueued} events, in queue order, in one append. */
  private Mono<Void> announce(List<Request> batch, List<MessageStore.Stored> stored) {
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
                batch.get(i).trace()));
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
