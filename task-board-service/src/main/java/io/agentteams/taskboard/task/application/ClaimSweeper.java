package io.agentteams.taskboard.task.application;

import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Recovers claims whose heartbeats stopped for longer than their team's claim time-out. Every
 * replica runs one; they coordinate through Postgres only: a team's board is taken with {@code FOR
 * UPDATE SKIP LOCKED}, so one sweeper at a time recovers a team (others skip it this round), and a
 * heartbeat racing the recovery loses its compare-and-set and is refused. A periodic loop runs a
 * sweep every {@code sweep-interval}.
 */
public final class ClaimSweeper {

  private final TaskStore store;
  private final TaskEvents events;
  private final TransactionalOperator transactions;
  private final BoardTransactions boards;
  private final TaskBoardProperties properties;
  private final Counter expired;
  private final Timer sweeps;

  public ClaimSweeper(
      TaskStore store,
      TaskEvents events,
      TransactionalOperator transactions,
      BoardTransactions boards,
      TaskBoardProperties properties,
      MeterRegistry meters) {
    this.store = store;
    this.events = events;
    this.transactions = transactions;
    this.boards = boards;
    this.properties = properties;
    this.expired =
        Counter.builder("agentteams.taskboard.claims.expired")
            .description("Claims recovered because their heartbeats stopped")
            .register(meters);
    this.sweeps =
        Timer.builder("agentteams.taskboard.sweep")
            .description("Duration of one sweep for expired claims")
            .register(meters);
  }

  /**
   * One sweep: every team with an expired claim, each in its own transaction.
   *
   * @return the tasks this sweep recovered
   */
  public Mono<List<Task>> sweepOnce() {
    return Mono.defer(
        () -> {
          long started = System.nanoTime();
          Instant now = boards.now();
          return store
              .teamsWithExpiredClaims(now, properties.claimTimeout(), properties.sweepTeams())
              .concatMap(team -> recover(team, now))
              .collectList()
              .doOnSuccess(
                  recovered -> {
                    expired.increment(recovered.size());
                    sweeps.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                  });
        });
  }

  private Flux<Task> recover(UUID team, Instant now) {
    return transactions
        .transactional(
            store
                .tryLock(team, properties.claimTimeout())
                .flatMap(
                    board -> {
                      List<Task> recovered = board.expireClaims(now);
                      return store
                          .save(board)
                          .then(events.publish(team, board.ownerId(), board.events()))
                          .thenReturn(recovered);
                    }))
        .flatMapMany(Flux::fromIterable);
  }
}
