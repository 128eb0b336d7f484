package io.agentteams.scheduler.presence.application;

import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.dispatch.application.StreamPresence;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.presence.domain.WorkerPresence;
import io.agentteams.scheduler.presence.messaging.PresenceEvents;
import io.agentteams.scheduler.presence.persistence.PresenceStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Worker presence, owned by the scheduler and shared by its replicas through Postgres: a pull
 * worker is connected while it holds a job stream on any replica. The replica that holds a stream
 * writes its presence row when it opens, renews it every third of {@code presence-ttl} while it
 * stays open, and deletes it when it closes; a replica that dies leaves its rows to lapse, and any
 * replica's sweep removes them. Push runtimes (webhook, A2A) hold no stream: the scheduler pushes
 * to them whenever it has work, so they count as always reachable and have no presence here.
 *
 * <p>The streams this replica holds are remembered here only to renew their rows: what is connected
 * is always read from the shared rows, never from this memory.
 *
 * <p>Every change of the rows (a stream opened or closed, lapsed presence swept) announces itself
 * to the agent's teams ({@code WorkerPresenceChanged}) in the same transaction, so a roster shows a
 * worker coming or going as soon as the event arrives.
 */
@Service
public class Presences implements StreamPresence {

  /** The gauge of agents with a pull worker connected, across every replica. */
  public static final String CONNECTED = "agentteams.scheduler.workers.connected";

  private static final Logger log = LoggerFactory.getLogger(Presences.class);
  private static final int SWEEP_BATCH = 500;

  private final PresenceStore store;
  private final PresenceEvents events;
  private final TransactionalOperator transactions;
  private final Clock clock;
  private final Duration ttl;
  private final String replica;
  private final Set<UUID> held = ConcurrentHashMap.newKeySet();
  private final Map<UUID, Unwritten> unwritten = new ConcurrentHashMap<>();
  private final AtomicLong connectedAgents = new AtomicLong();

  public Presences(
      PresenceStore store,
      PresenceEvents events,
      TransactionalOperator transactions,
      SchedulerProperties properties,
      Clock clock,
      MeterRegistry meters) {
    this.store = store;
    this.events = events;
    this.transactions = transactions;
    this.clock = clock;
    this.ttl = properties.dispatch().presenceTtl();
    this.replica = properties.replicaId();
    Gauge.builder(CONNECTED, connectedAgents, AtomicLong::get)
        .description("Agents with a pull worker holding a job stream, on any replica")
        .register(meters);
  }

  /** How often this replica renews its streams' presence and sweeps lapsed presence. */
  public Duration renewEvery() {
    return ttl.dividedBy(3);
  }

  @Override
  public <T> Flux<T> whileOpen(AgentKey agent, String workerId, Function<UUID, Flux<T>> stream) {
    return Flux.usingWhen(
        open(agent, workerId),
        stream,
        this::close,
        (streamId, error) -> close(streamId),
        this::close);
  }

  /** A stream whose presence could not be written when it opened; the next upkeep writes it. */
  private record Unwritten(AgentKey agent, String workerId, Instant connectedAt) {}

  private Mono<UUID> open(AgentKey agent, String workerId) {
    UUID streamId = UUID.randomUUID();
    Instant now = clock.instant();
    Unwritten row = new Unwritten(agent, workerId, now);
    return write(streamId, row, now)
        .onErrorResume(
            e -> {
              // The stream still serves its worker (it claims nothing while Postgres is away).
              log.warn("the presence of a new stream is not written yet: {}", e.toString());
              unwritten.put(streamId, row);
              return Mono.empty();
            })
        .thenReturn(streamId);
  }

  private Mono<Void> write(UUID streamId, Unwritten row, Instant now) {
    Mono<Void> opened =
        store
            .open(
                streamId,
                row.agent().ownerId(),
                row.agent().agentId(),
                row.workerId(),
                replica,
                row.connectedAt(),
                now.plus(ttl))
            .then(events.changed(row.agent(), now));
    return transactions.transactional(opened).then(Mono.fromRunnable(() -> held.add(streamId)));
  }

  private Mono<Void> close(UUID streamId) {
    held.remove(streamId);
    unwritten.remove(streamId);
    Mono<Void> closed =
        store.close(streamId).flatMap(agent -> events.changed(agent, clock.instant()));
    return transactions
        .transactional(closed)
        .onErrorResume(
            e -> {
              // Its row lapses on its own after presence-ttl.
              log.warn("closing the presence of stream {} failed: {}", streamId, e.toString());
              return Mono.empty();
            });
  }

  /**
   * One round of upkeep: renews the presence of the streams this replica holds (writing any that
   * could not be written when they opened), forgets presence that lapsed (a replica that died), and
   * refreshes the gauge.
   */
  public Mono<Void> upkeep() {
    Instant now = clock.instant();
    return store
        .renew(List.copyOf(held), now.plus(ttl))
        .thenMany(
            Flux.fromIterable(List.copyOf(unwritten.entrySet()))
                .concatMap(
                    late ->
                        write(late.getKey(), late.getValue(), now)
                            .doOnSuccess(done -> unwritten.remove(late.getKey()))))
        .then(
            transactions.transactional(
                store
                    .forgetLapsed(now, SWEEP_BATCH)
                    .flatMapMany(Flux::fromIterable)
                    .concatMap(agent -> events.changed(agent, now))
                    .then()))
        .then(store.connectedAgents(now))
        .doOnNext(connectedAgents::set)
        .then();
  }

  /** Every agent of the owner that has a worker connected now. */
  public Flux<WorkerPresence> connected(String ownerId) {
    return store.connected(ownerId, clock.instant());
  }

  /** The presence of one agent of the owner (not connected when none of its workers is). */
  public Mono<WorkerPresence> of(String ownerId, String agentId) {
    return connected(ownerId)
        .filter(presence -> presence.agentId().equals(agentId))
        .next()
        .defaultIfEmpty(WorkerPresence.absent(agentId));
  }

  /** The owner's presence by agent. */
  public Mono<Map<String, WorkerPresence>> byAgent(String ownerId) {
    return connected(ownerId).collectMap(WorkerPresence::agentId);
  }
}
