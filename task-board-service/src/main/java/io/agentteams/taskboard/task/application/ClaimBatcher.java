package io.agentteams.taskboard.task.application;

import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * Group commit for claims. Every claim of a team and its event is one guarded statement, and the
 * outbox orders a team's events by committing them one at a time; so while a team's claim statement
 * runs, further claims of that team wait and then go together in the next statement. Nothing waits
 * for a timer: a lone claim goes at once, and the batch grows only with contention.
 *
 * <p>This is an optimisation, not coordination: who wins a task is decided by the statement's guard
 * on the row, so replicas batching their own claims side by side stay correct. Two claims of the
 * same task never share a statement (the second waits for the next one), so each attempt gets the
 * answer the guard gives it.
 */
@Component
public class ClaimBatcher {

  private final TaskStore store;
  private final Supplier<Instant> clock;
  private final int maxBatch;
  private final DistributionSummary batchSizes;
  private final Timer statementTime;
  private final Map<UUID, Lane> lanes = new ConcurrentHashMap<>();

  public ClaimBatcher(
      TaskStore store,
      BoardTransactions boards,
      TaskBoardProperties properties,
      MeterRegistry meters) {
    this.store = store;
    this.clock = boards::now;
    this.maxBatch = properties.claimBatchMax();
    this.batchSizes =
        DistributionSummary.builder("agentteams.taskboard.claim.batch.size")
            .description("Claims written together in one statement")
            .register(meters);
    this.statementTime =
        Timer.builder("agentteams.taskboard.claim.statement.time")
            .description(
                "Time from sending a claim statement to its answer: a team's claims wait this long"
                    + " for each statement ahead of theirs")
            .register(meters);
  }

  /**
   * Tries the claim, alone or with others of the same team.
   *
   * @return the claimed task, or empty when the claim's guard did not hold
   */
  public Mono<Task> claim(UUID team, String ownerId, TaskStore.ClaimAttempt attempt) {
    return Mono.deferContextual(
        context -> {
          Request request = new Request(attempt, ownerId, context, Sinks.one());
          Lane lane = lanes.computeIfAbsent(team, k -> new Lane());
          boolean start;
          synchronized (lane) {
            lane.queue.add(request);
            start = !lane.busy;
            lane.busy = true;
          }
          if (start) {
            run(team, lane);
          }
          return request.result().asMono();
        });
  }

  private record Request(
      TaskStore.ClaimAttempt attempt,
      String ownerId,
      ContextView context,
      Sinks.One<Task> result) {}

  /** A team's waiting claims; {@code busy} while one of its statements runs. */
  private static final class Lane {
    final ArrayDeque<Request> queue = new ArrayDeque<>();
    boolean busy;
  }

  private void run(UUID team, Lane lane) {
    List<Request> batch = new ArrayList<>();
    Set<TaskId> tasks = new HashSet<>();
    synchronized (lane) {
      Iterator<Request> waiting = lane.queue.iterator();
      while (waiting.hasNext() && batch.size() < maxBatch) {
        Request request = waiting.next();
        if (tasks.add(request.attempt().id())) {
          batch.add(request);
          waiting.remove();
        }
      }
    }
    batchSizes.record(batch.size());
    Instant now = clock.get();
    long started = System.nanoTime();
    Request first = batch.get(0);
    // Deferred, so that even a failure while building the statement reaches the batch's callers
    // and frees the lane instead of leaving the team's later claims waiting.
    Flux.defer(
            () ->
                store.claim(
                    team,
                    batch.stream().map(Request::attempt).toList(),
                    now,
                    first.ownerId(),
                    a ->
                        TaskEvents.claimed(
                            team, a.id(), a.member(), now, a.expectedRevision() + 1)))
        .collectList()
        .doOnEach(
            signal -> {
              if (signal.isOnNext() || signal.isOnError()) {
                statementTime.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
              }
            })
        .contextWrite(Context.of(first.context()))
        .subscribe(
            claimed -> {
              Map<TaskId, Task> byId = new HashMap<>();
              claimed.forEach(task -> byId.put(task.id(), task));
              for (Request request : batch) {
                Task task = byId.get(request.attempt().id());
                if (task == null) {
                  request.result().tryEmitEmpty();
                } else {
                  request.result().tryEmitValue(task);
                }
              }
              next(team, lane);
            },
            error -> {
              batch.forEach(request -> request.result().tryEmitError(error));
              next(team, lane);
            });
  }

  private void next(UUID team, Lane lane) {
    synchronized (lane) {
      if (lane.queue.isEmpty()) {
        lane.busy = false;
        lanes.remove(team, lane);
        return;
      }
    }
    run(team, lane);
  }
}
