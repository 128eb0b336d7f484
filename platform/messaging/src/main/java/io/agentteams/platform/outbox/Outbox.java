package io.agentteams.platform.outbox;

import io.agentteams.contracts.EventPayload;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.TraceContext;
import io.agentteams.platform.tracing.EventTracing;
import io.r2dbc.spi.Readable;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Writes events into the outbox table inside the caller's transaction, so an event exists if and
 * only if the change it describes committed.
 *
 * <p>Appending takes a transaction-scoped advisory lock on the event's key: two transactions that
 * write events for the same team therefore commit their rows in id order, which is the order the
 * relay publishes them in.
 */
public final class Outbox {

  /** Lanes the keys are spread over; the migration creates one row per lane. */
  public static final int LANES = 32;

  /**
   * Advisory lock namespace for per-key ordering (the first half of the two-int lock key, the
   * second is {@code hashtext(key)}). Public so that a service whose transaction spans many keys
   * can take a key's lock with {@code pg_try_advisory_xact_lock} first and skip a busy key instead
   * of waiting behind it.
   */
  public static final int KEY_LOCK_NAMESPACE = 0x0A7E_0001;

  private static final String INSERT =
      """
      WITH key_lock AS (SELECT pg_advisory_xact_lock(:namespace, hashtext(:key)))
      INSERT INTO platform.outbox (event_id, topic, message_key, lane, event_type, payload, traceparent)
      SELECT :eventId, :topic, :key, (hashtext(:key) & 2147483647) % :lanes, :type, :payload, :traceparent
      FROM key_lock
      """;

  // Many events in one statement: the keys' ordering locks first (in a fixed order, so two such
  // statements cannot deadlock), then the rows in the order given.
  private static final String INSERT_ALL =
      """
      WITH key_lock AS (
          SELECT pg_advisory_xact_lock(:namespace, hashtext(k))
          FROM (SELECT DISTINCT k FROM unnest(:keys::text[]) AS k ORDER BY k) AS distinct_keys
      )
      INSERT INTO platform.outbox (event_id, topic, message_key, lane, event_type, payload, traceparent)
      SELECT e.event_id, :topic, e.message_key, (hashtext(e.message_key) & 2147483647) % :lanes,
             e.event_type, e.payload, e.traceparent
      FROM unnest(:eventIds::uuid[], :keys::text[], :types::text[], :payloads::text[],
                  :traces::text[])
           WITH ORDINALITY AS e(event_id, message_key, event_type, payload, traceparent, ord)
      WHERE (SELECT count(*) FROM key_lock) >= 0
      ORDER BY e.ord
      """;

  /**
   * One event for {@link #appendAll}.
   *
   * @param teamId the team the event concerns (the Kafka key)
   * @param ownerId the team's owner
   * @param sequence the aggregate's revision after this change
   * @param payload the event data
   * @param trace the trace of the request that caused this event, for a statement that writes the
   *     events of several requests at once; null to take the caller's (the span current in the
   *     Reactor context), like every other append
   */
  public record Pending(
      String teamId,
      String ownerId,
      long sequence,
      EventPayload payload,
      @Nullable TraceContext trace) {

    /** An event with the caller's trace. */
    public Pending(String teamId, String ownerId, long sequence, EventPayload payload) {
      this(teamId, ownerId, sequence, payload, null);
    }
  }

  private final DatabaseClient db;
  private final EventCodec codec;
  private final EventTracing tracing;
  private final OutboxCommits commits;

  /**
   * An outbox whose commits wake no relay of this process: its rows wait for a notification or a
   * poll.
   *
   * @param tracing gives each event the trace context of the span current where it is appended (the
   *     request's or the consumer's), which the relay continues
   */
  public Outbox(DatabaseClient db, EventCodec codec, EventTracing tracing) {
    this(db, codec, tracing, new OutboxCommits());
  }

  /**
   * @param tracing gives each event the trace context of the span current where it is appended (the
   *     request's or the consumer's), which the relay continues
   * @param commits told when a transaction that appended rows commits, for this process's relay
   */
  public Outbox(DatabaseClient db, EventCodec codec, EventTracing tracing, OutboxCommits commits) {
    this.db = db;
    this.codec = codec;
    this.tracing = tracing;
    this.commits = commits;
  }

  /**
   * The trace an event appended in this Reactor context would carry (the current span's), for a
   * writer that appends the events of several requests later, at once ({@link Pending#trace()}).
   */
  public @Nullable TraceContext traceOf(ContextView context) {
    return tracing.current(context);
  }

  /**
   * Appends an event about a team to the outbox within the current transaction.
   *
   * @param topic where the relay publishes it
   * @param teamId the team the event concerns (the Kafka key)
   * @param ownerId the team's owner
   * @param sequence the aggregate's revision after this change
   * @param payload the event data
   * @return the envelope as written
   */
  public Mono<EventEnvelope> append(
      String topic, String teamId, String ownerId, long sequence, EventPayload payload) {
    return Mono.deferContextual(
        context -> {
          TraceContext trace = tracing.current(context);
          EventEnvelope envelope = codec.envelope(payload, teamId, ownerId, sequence, trace);
          return append(topic, envelope);
        });
  }

  /** Appends a ready-made envelope within the current transaction. */
  public Mono<EventEnvelope> append(String topic, EventEnvelope envelope) {
    DatabaseClient.GenericExecuteSpec insert =
        db.sql(INSERT)
            .bind("namespace", KEY_LOCK_NAMESPACE)
            .bind("key", envelope.teamId())
            .bind("lanes", LANES)
            .bind("eventId", envelope.eventId())
            .bind("topic", topic)
            .bind("type", envelope.type())
            .bind("payload", codec.write(envelope));
    insert =
        envelope.trace() == null
            ? insert.bindNull("traceparent", String.class)
            : insert.bind("traceparent", envelope.trace().traceparent());
    return requireTransaction()
        .then(insert.fetch().rowsUpdated())
        .then(wakeRelayOnCommit())
        .thenReturn(envelope);
  }

  /**
   * Appends several events within the current transaction in one statement, in the order given; the
   * same as calling {@link #append(String, String, String, long, EventPayload)} for each, for a
   * change that touches many aggregates at once. Each event carries its own {@link Pending#trace()}
   * if it has one, the caller's otherwise.
   */
  public Mono<List<EventEnvelope>> appendAll(String topic, List<Pending> events) {
    if (events.isEmpty()) {
      return requireTransaction().thenReturn(List.of());
    }
    return Mono.deferContextual(
        context -> {
          TraceContext callers = tracing.current(context);
          List<EventEnvelope> envelopes =
              events.stream()
                  .map(
                      e ->
                          codec.envelope(
                              e.payload(),
                              e.teamId(),
                              e.ownerId(),
                              e.sequence(),
                              e.trace() == null ? callers : e.trace()))
                  .toList();
          DatabaseClient.GenericExecuteSpec insert =
              db.sql(INSERT_ALL)
                  .bind("namespace", KEY_LOCK_NAMESPACE)
                  .bind("lanes", LANES)
                  .bind("topic", topic)
                  .bind(
                      "eventIds",
                      envelopes.stream().map(EventEnvelope::eventId).toArray(UUID[]::new))
                  .bind(
                      "keys", envelopes.stream().map(EventEnvelope::teamId).toArray(String[]::new))
                  .bind("types", envelopes.stream().map(EventEnvelope::type).toArray(String[]::new))
                  .bind("payloads", envelopes.stream().map(codec::write).toArray(String[]::new))
                  .bind(
                      "traces",
                      envelopes.stream()
                          .map(e -> e.trace() == null ? null : e.trace().traceparent())
                          .toArray(String[]::new));
          return requireTransaction()
              .then(insert.fetch().rowsUpdated())
              .flatMap(
                  inserted ->
                      inserted == envelopes.size()
                          ? wakeRelayOnCommit().thenReturn(envelopes)
                          : Mono.error(
                              new IllegalStateException(
                                  "outbox took " + inserted + " of " + envelopes.size())));
        });
  }

  /**
   * One event of {@link #appendWithChange}, written only if the change returns a row whose {@code
   * outbox_match} column equals {@code match}.
   *
   * @param match which changed row the event describes, e.g. the row's id as text
   * @param sequence the aggregate's revision after the change
   * @param payload the event data
   * @param trace the trace of the request that caused this event, for a statement that carries the
   *     changes of several requests at once; null to take the caller's (the span current in the
   *     Reactor context)
   */
  public record RowEvent(
      String match, long sequence, EventPayload payload, @Nullable TraceContext trace) {

    /** An event with the caller's trace. */
    public RowEvent(String match, long sequence, EventPayload payload) {
      this(match, sequence, payload, null);
    }
  }

  /**
   * Writes a change and its events about one key in a single statement: {@code change} is a
   * data-modifying statement whose {@code RETURNING} clause includes a text column {@code
   * outbox_match}; each event is appended if and only if a changed row matched it, in the order
   * given. Change and events commit together, in the caller's transaction if there is one or as the
   * statement's own otherwise, so no separate transaction is needed. The key's ordering lock is
   * then held only while the statement runs and commits, never across a round trip to the client,
   * which keeps contended changes (claims, compare-and-set updates) fast, and one statement can
   * carry a whole batch of them.
   *
   * @param change e.g. {@code UPDATE task SET ... WHERE ... RETURNING id::text AS outbox_match,
   *     ...}; its parameter names must not start with {@code outbox_}
   * @param bind binds the change's parameters
   * @param read maps a row the change returned
   * @param topic where the relay publishes the events
   * @param key the key of every event (the team id)
   * @param ownerId the owner of that team
   * @param events the events, each for the changed row it matches, each with its own trace or the
   *     caller's
   * @return what the change returned; empty when it changed nothing (and no event was written)
   */
  public <T> Flux<T> appendWithChange(
      String change,
      UnaryOperator<DatabaseClient.GenericExecuteSpec> bind,
      Function<Readable, T> read,
      String topic,
      String key,
      String ownerId,
      List<RowEvent> events) {
    return Flux.deferContextual(
        context -> {
          // The caller's trace is looked up only for events that have none of their own.
          TraceContext callers =
              events.stream().allMatch(e -> e.trace() != null) ? null : tracing.current(context);
          List<EventEnvelope> envelopes =
              events.stream()
                  .map(
                      e ->
                          codec.envelope(
                              e.payload(),
                              key,
                              ownerId,
                              e.sequence(),
                              e.trace() == null ? callers : e.trace()))
                  .toList();
          String sql =
              "WITH change AS ("
                  + change
                  + "), events AS (SELECT e.* FROM unnest(:outbox_match::text[],"
                  + " :outbox_event_id::uuid[], :outbox_type::text[], :outbox_payload::text[],"
                  + " :outbox_traceparent::text[])"
                  + " WITH ORDINALITY AS e(match, event_id, event_type, payload, traceparent, ord)"
                  + " WHERE e.match IN (SELECT outbox_match FROM change)),"
                  + " key_lock AS (SELECT pg_advisory_xact_lock(:outbox_namespace,"
                  + " hashtext(:outbox_key)) FROM (SELECT 1 FROM events LIMIT 1) any_event),"
                  + " appended AS (INSERT INTO platform.outbox (event_id, topic, message_key, lane,"
                  + " event_type, payload, traceparent) SELECT e.event_id, :outbox_topic,"
                  + " :outbox_key, (hashtext(:outbox_key) & 2147483647) % :outbox_lanes,"
                  + " e.event_type, e.payload, e.traceparent FROM events e, key_lock"
                  + " ORDER BY e.ord)"
                  + " SELECT * FROM change";
          DatabaseClient.GenericExecuteSpec spec =
              bind.apply(db.sql(sql))
                  .bind("outbox_match", events.stream().map(RowEvent::match).toArray(String[]::new))
                  .bind(
                      "outbox_event_id",
                      envelopes.stream().map(EventEnvelope::eventId).toArray(UUID[]::new))
                  .bind(
                      "outbox_type",
                      envelopes.stream().map(EventEnvelope::type).toArray(String[]::new))
                  .bind(
                      "outbox_payload", envelopes.stream().map(codec::write).toArray(String[]::new))
                  .bind("outbox_namespace", KEY_LOCK_NAMESPACE)
                  .bind("outbox_key", key)
                  .bind("outbox_lanes", LANES)
                  .bind("outbox_topic", topic)
                  .bind(
                      "outbox_traceparent",
                      envelopes.stream()
                          .map(e -> e.trace() == null ? null : e.trace().traceparent())
                          .toArray(String[]::new));
          // In the caller's transaction the relay is woken when it commits; a statement of its
          // own has committed when it completes.
          return inTransaction()
              .flatMapMany(
                  inTransaction ->
                      inTransaction
                          ? wakeRelayOnCommit().thenMany(spec.map(read::apply).all())
                          : spec.map(read::apply).all().doOnComplete(commits::committed));
        });
  }

  /** Whether the caller runs in a transaction whose commit can be waited for. */
  private static Mono<Boolean> inTransaction() {
    return TransactionSynchronizationManager.forCurrentTransaction()
        .map(TransactionSynchronizationManager::isSynchronizationActive)
        .onErrorResume(NoTransactionException.class, none -> Mono.just(false))
        .defaultIfEmpty(false);
  }

  /** Asks this process's relay to look once the caller's transaction has committed. */
  private Mono<Void> wakeRelayOnCommit() {
    return TransactionSynchronizationManager.forCurrentTransaction()
        .filter(TransactionSynchronizationManager::isSynchronizationActive)
        .doOnNext(
            synchronization ->
                synchronization.registerSynchronization(
                    new TransactionSynchronization() {
                      @Override
                      public Mono<Void> afterCommit() {
                        return Mono.fromRunnable(commits::committed);
                      }
                    }))
        .then();
  }

  private static Mono<Void> requireTransaction() {
    return TransactionSynchronizationManager.forCurrentTransaction()
        .filter(TransactionSynchronizationManager::isActualTransactionActive)
        .switchIfEmpty(
            Mono.error(
                new NoTransactionException(
                    "an outbox row must be written in the transaction of the change it describes")))
        .then();
  }
}
