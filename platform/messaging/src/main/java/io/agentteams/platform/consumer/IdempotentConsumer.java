package io.agentteams.platform.consumer;

import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.tracing.EventTracing;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
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

  private static final String MARK_ALL =
      """
      INSERT INTO platform.processed_event (consumer, event_id)
      SELECT :consumer, id FROM unnest(:eventIds) AS id
      ON CONFLICT DO NOTHING
      RETURNING event_id
      """;

  private final DatabaseClient db;
  private final TransactionalOperator transactions;
  private final EventTracing tracing;

  /**
   * @param tracing runs each new event's handler in a span that continues the event's trace
   */
  public IdempotentConsumer(
      DatabaseClient db, TransactionalOperator transactions, EventTracing tracing) {
    this.db = db;
    this.transactions = transactions;
    this.tracing = tracing;
  }

  /**
   * Applies a batch of events in one transaction, in order, skipping those this consumer already
   * applied. Either every new event's effect and mark commit, or none.
   *
   * @return how many events were new and applied
   */
  public Mono<Integer> processAll(
      String consumer, List<EventEnvelope> events, EventHandler handler) {
    if (events.isEmpty()) {
      return Mono.just(0);
    }
    UUID[] ids = events.stream().map(EventEnvelope::eventId).toArray(UUID[]::new);
    Mono<Integer> all =
        db.sql(MARK_ALL)
            .bind("consumer", consumer)
            .bind("eventIds", ids)
            .map(row -> row.get("event_id", UUID.class))
            .all()
            .collect(Collectors.toSet())
            .flatMap(
                fresh ->
                    Flux.fromIterable(events)
                        .filter(event -> fresh.remove(event.eventId()))
                        .concatMap(
                            event ->
                                tracing
                                    .handling(consumer, event, () -> handler.handle(event))
                                    .thenReturn(1))
                        .count()
                        .map(Long::intValue));
    return transactions.transactional(all);
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
                    inserted == 0
                        ? Mono.just(false)
                        : tracing
                            .handling(consumer, event, () -> handler.handle(event))
                            .thenReturn(true));
    return transactions.transactional(once);
  }
}
