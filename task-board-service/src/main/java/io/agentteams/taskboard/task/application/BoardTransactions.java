package io.agentteams.taskboard.task.application;

import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.domain.Board;
import io.agentteams.taskboard.task.domain.BoardProblems;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Runs a change of a team's board in one transaction: lock the board row and the team's live tasks,
 * let the aggregate decide, store what changed (tasks with a compare-and-set on their revision, the
 * id counter, the settings) and write the events to the outbox. A refusal rolls everything back.
 */
@Component
public class BoardTransactions {

  private final TaskStore store;
  private final TaskEvents events;
  private final TransactionalOperator transactions;
  private final TaskBoardProperties properties;
  private final Clock clock;
  private final Timer lockWait;

  public BoardTransactions(
      TaskStore store,
      TaskEvents events,
      TransactionalOperator transactions,
      TaskBoardProperties properties,
      Clock clock,
      MeterRegistry meters) {
    this.store = store;
    this.events = events;
    this.transactions = transactions;
    this.properties = properties;
    this.clock = clock;
    this.lockWait =
        Timer.builder("agentteams.taskboard.board.lock.wait")
            .description("Time a change waited for its team's board lock")
            .register(meters);
  }

  /** The clock's time, at the database's precision. */
  public Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  /**
   * Applies {@code change} to the locked board and commits it with its events.
   *
   * @param createBoard whether to create the team's board if it has none (otherwise: not found)
   * @param target a task the change addresses, loaded even if it is a tombstone
   * @param change decides on the board; may read or write more within the transaction
   * @param after runs after the board's events were written, still within the transaction
   */
  public <R> Mono<R> change(
      BoardCaller access,
      boolean createBoard,
      @Nullable TaskId target,
      BiFunction<Board, Instant, Mono<R>> change,
      Function<R, Mono<Void>> after) {
    return Mono.defer(
        () -> {
          Instant now = now();
          Mono<Void> ensure =
              createBoard
                  ? store.ensureBoard(access.teamId(), access.ownerId(), now)
                  : Mono.empty();
          return transactions.transactional(
              ensure
                  .then(lock(access.teamId(), target))
                  .flatMap(board -> decideAndCommit(access, board, now, change))
                  .flatMap(result -> after.apply(result).thenReturn(result)));
        });
  }

  /** The team's board, locked, with the target task; not found when there is none. */
  private Mono<Board> lock(UUID teamId, @Nullable TaskId target) {
    return Mono.defer(
            () -> {
              long started = System.nanoTime();
              return store
                  .lock(teamId, properties.claimTimeout(), target)
                  .doOnNext(
                      board -> lockWait.record(System.nanoTime() - started, TimeUnit.NANOSECONDS));
            })
        .switchIfEmpty(
            Mono.error(
                () ->
                    target == null
                        ? BoardProblems.boardNotFound(teamId)
                        : BoardProblems.taskNotFound(target)));
  }

  /** Decides on the locked board, then saves it with its events. */
  private <R> Mono<R> decideAndCommit(
      BoardCaller access, Board board, Instant now, BiFunction<Board, Instant, Mono<R>> change) {
    return change
        .apply(board, now)
        .flatMap(
            result ->
                store
                    .save(board)
                    .then(events.publish(access.teamId(), access.ownerId(), board.events()))
                    .thenReturn(result));
  }

  /** Like {@link #change} for a decision that needs nothing but the board. */
  public <R> Mono<R> change(
      BoardCaller access,
      boolean createBoard,
      @Nullable TaskId target,
      BiFunction<Board, Instant, R> decide) {
    return change(
        access,
        createBoard,
        target,
        (board, now) -> Mono.fromCallable(() -> decide.apply(board, now)),
        result -> Mono.empty());
  }
}
