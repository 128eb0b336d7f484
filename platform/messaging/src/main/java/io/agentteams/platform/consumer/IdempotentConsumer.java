package io.agentteams.platform.consumer;

import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.TraceContext;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Applies an event at most once per consumer: the mark {@code (consumer, event_id)} is inserted
 * with {@code ON CONFLICT DO NOTHING} in the same transaction as the handler's effect, and the
 * handler runs only when the mark was new. A redelivered event therefore changes nothing.
 */
public final class IdempotentConsumer {

  private static final String MARK =
      """
      INSERT INTO platform.processed_event (consumer, event_id) VALUES (:consumer, :eventId)
      ON CONFLICT DO NOTHING
      """;

  private final DatabaseClient db;
  private final TransactionalOperator transactions;

  public IdempotentConsumer(DatabaseClient db, TransactionalOperator transactions) {
    this.db = db;
    this.transactions = transactions;
  }

  /**
   * Applies the event unless this consumer already did.
   *
   * @return true when the handler ran and committed, false for a duplicate
   */
  public Mono<Boolean> process(String consumer, EventEnvelope event, EventHandler handler) {
    Mono<Boolean> once =
        db.sql(MARK)
            .bind("consumer", consumer)
            .bind("eventId", event.eventId())
            .fetch()
            .rowsUpdated()
            .flatMap(
                inserted ->
                    inserted == 0 ? Mono.just(false) : handler.handle(event).thenReturn(true));
    Mono<Boolean> inTransaction = transactions.transactional(once);
    return event.trace() == null
        ? inTransaction
        : inTransaction.contextWrite(
            context -> context.put(TraceContext.CONTEXT_KEY, event.trace()));
  }
}
