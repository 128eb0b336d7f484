package io.agentteams.taskboard.task.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.domain.Actor;
import io.agentteams.taskboard.task.domain.Board;
import io.agentteams.taskboard.task.domain.BoardEvent;
import io.agentteams.taskboard.task.domain.BoardProblems;
import io.agentteams.taskboard.task.domain.NewTask;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskEdit;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.domain.TaskLimits;
import io.agentteams.taskboard.task.domain.TaskProblem;
import io.agentteams.taskboard.task.domain.WriteScopes;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Every change of a task. Changes that can move other tasks' status (create, edit, release,
 * reassign, complete, fail, cancel, delete) run on the locked board; claims and heartbeats, which
 * never do, write the one task with a compare-and-set on its revision, so claimants of different
 * tasks never wait for each other's board lock.
 */
@Service
public class TaskCommands {

  private final RosterAccess access;
  private final BoardTransactions boards;
  private final TaskStore store;
  private final TaskEvents events;
  private final TransactionalOperator transactions;
  private final ClaimBatcher batcher;
  private final TaskLimits limits;
  private final MeterRegistry meters;

  public TaskCommands(
      RosterAccess access,
      BoardTransactions boards,
      TaskStore store,
      TaskEvents events,
      TransactionalOperator transactions,
      ClaimBatcher batcher,
      TaskBoardProperties properties,
      MeterRegistry meters) {
    this.access = access;
    this.boards = boards;
    this.store = store;
    this.events = events;
    this.transactions = transactions;
    this.batcher = batcher;
    this.limits = properties.limits();
    this.meters = meters;
  }

  public Mono<TaskOutcome> create(Caller caller, UUID teamId, NewTask draft) {
    return onBoard(
        caller,
        teamId,
        true,
        null,
        (a, board, now) -> {
          Task created = board.create(a.actor(), draft, a.members(), limits, now);
          return outcome(board, created, board.overlaps(created));
        });
  }

  public Mono<TaskOutcome> update(
      Caller caller, UUID teamId, TaskId id, long expectedRevision, TaskEdit edit) {
    return onBoard(
        caller,
        teamId,
        id,
        (a, board, now) -> {
          Task updated = board.update(a.actor(), id, expectedRevision, edit, limits, now);
          return outcome(board, updated, board.overlaps(updated));
        });
  }

  public Mono<TaskOutcome> cancel(Caller caller, UUID teamId, TaskId id, long expectedRevision) {
    return transition(caller, teamId, id, expectedRevision, Board::cancel);
  }

  public Mono<TaskOutcome> delete(Caller caller, UUID teamId, TaskId id, long expectedRevision) {
    return transition(caller, teamId, id, expectedRevision, Board::delete);
  }

  public Mono<TaskOutcome> release(Caller caller, UUID teamId, TaskId id, long expectedRevision) {
    return transition(caller, teamId, id, expectedRevision, Board::release);
  }

  public Mono<TaskOutcome> reassign(
      Caller caller, UUID teamId, TaskId id, long expectedRevision, String member) {
    return onBoard(
        caller,
        teamId,
        id,
        (a, board, now) -> {
          Task reassigned =
              board.reassign(a.actor(), id, expectedRevision, member, a.members(), now);
          return outcome(board, reassigned, board.overlaps(reassigned));
        });
  }

  public Mono<TaskOutcome> complete(
      Caller caller, UUID teamId, TaskId id, long expectedRevision, @Nullable String result) {
    return ending(caller, teamId, id, expectedRevision, result, Board::complete);
  }

  public Mono<TaskOutcome> fail(
      Caller caller, UUID teamId, TaskId id, long expectedRevision, @Nullable String error) {
    return ending(caller, teamId, id, expectedRevision, error, Board::fail);
  }

  /**
   * Claims a ready task with one guarded write (batched with the team's other concurrent claims):
   * of racing claimants exactly one wins, the others are answered by the aggregate's rule applied
   * to the task as it is now (a stale revision, a task that is no longer ready or already owned),
   * with that task in the answer. The winner's answer lists the task's current write-scope
   * overlaps, read after the claim and only when the task has scopes, so the claimant knows what it
   * shares; the event carries none (see {@code BoardEvent.Claimed}).
   */
  public Mono<TaskOutcome> claim(Caller caller, UUID teamId, TaskId id, long expectedRevision) {
    return timed(
        "claim",
        BoardCaller.resolve(access, caller, teamId).flatMap(a -> claimAs(a, id, expectedRevision)));
  }

  /** A member's claim goes to the batcher; anyone else is refused by the aggregate's rule. */
  private Mono<TaskOutcome> claimAs(BoardCaller a, TaskId id, long expectedRevision) {
    Instant now = boards.now();
    UnaryOperator<Task> claim = task -> task.claim(a.actor(), expectedRevision, now);
    if (!(a.actor() instanceof Actor.Member member)) {
      return refusal(a.teamId(), id, expectedRevision, claim);
    }
    return batcher
        .claim(
            a.teamId(),
            a.ownerId(),
            new TaskStore.ClaimAttempt(id, member.name(), expectedRevision))
        .flatMap(claimed -> withOverlaps(a.teamId(), claimed))
        .switchIfEmpty(refusal(a.teamId(), id, expectedRevision, claim));
  }

  private Mono<TaskOutcome> withOverlaps(UUID teamId, Task claimed) {
    return overlaps(teamId, claimed).map(warnings -> new TaskOutcome(claimed, warnings, List.of()));
  }

  /**
   * The claimant's heartbeat, optionally with progress. A claimant whose claim expired (or was
   * taken over) is refused: it no longer owns the task.
   */
  public Mono<TaskOutcome> heartbeat(
      Caller caller,
      UUID teamId,
      TaskId id,
      long expectedRevision,
      Task.@Nullable Progress progress) {
    if (progress != null && progress.phase() != null) {
      limits.phase().check(progress.phase());
    }
    return timed(
        "heartbeat",
        BoardCaller.resolve(access, caller, teamId)
            .flatMap(a -> heartbeatAs(a, id, expectedRevision, progress)));
  }

  /**
   * The heartbeat written with a compare-and-set on the task, with an event when progress moved.
   */
  private Mono<TaskOutcome> heartbeatAs(
      BoardCaller a, TaskId id, long expectedRevision, Task.@Nullable Progress progress) {
    Instant now = boards.now();
    UnaryOperator<Task> beat = task -> task.heartbeat(a.actor(), expectedRevision, progress, now);
    return read(a.teamId(), id)
        .flatMap(
            task -> {
              Task beating = beat.apply(task);
              List<BoardEvent> happened =
                  beating.progressDiffers(task)
                      ? List.of(new BoardEvent.Progressed(beating))
                      : List.of();
              return writeOne(a, task, beating, expectedRevision, beat, happened, List.of());
            });
  }

  /** Sets the team's claim time-out, or returns it to the default when {@code timeout} is null. */
  public Mono<TaskStore.BoardSettings> changeClaimTimeout(
      Caller caller, UUID teamId, long expectedRevision, @Nullable Duration timeout) {
    return onBoard(
        caller,
        teamId,
        true,
        null,
        (a, board, now) -> {
          board.changeClaimTimeout(a.actor(), expectedRevision, timeout, limits, now);
          return new TaskStore.BoardSettings(
              board.claimTimeout(), board.effectiveClaimTimeout(), board.settingsRevision());
        });
  }

  // ---- internals ----

  /** A decision on the locked board by a resolved caller. */
  @FunctionalInterface
  private interface BoardDecision<R> {
    R decide(BoardCaller access, Board board, Instant now);
  }

  /** A transition of one task by an actor, with nothing to report but the task. */
  @FunctionalInterface
  private interface Transition {
    Task apply(Board board, Actor actor, TaskId id, long expectedRevision, Instant now);
  }

  /** How a claimed task ends, with the claimant's words (its result, or why it failed). */
  @FunctionalInterface
  private interface Ending {
    Task apply(
        Board board,
        Actor actor,
        TaskId id,
        long expectedRevision,
        @Nullable String words,
        TaskLimits limits,
        Instant now);
  }

  private Mono<TaskOutcome> ending(
      Caller caller,
      UUID teamId,
      TaskId id,
      long expectedRevision,
      @Nullable String words,
      Ending ending) {
    return transition(
        caller,
        teamId,
        id,
        expectedRevision,
        (board, actor, task, revision, now) ->
            ending.apply(board, actor, task, revision, words, limits, now));
  }

  private Mono<TaskOutcome> transition(
      Caller caller, UUID teamId, TaskId id, long expectedRevision, Transition transition) {
    return onBoard(
        caller,
        teamId,
        id,
        (a, board, now) ->
            outcome(
                board, transition.apply(board, a.actor(), id, expectedRevision, now), List.of()));
  }

  /** A decision on the team's locked board about one of its tasks. */
  private <R> Mono<R> onBoard(Caller caller, UUID teamId, TaskId id, BoardDecision<R> decision) {
    return onBoard(caller, teamId, false, id, decision);
  }

  /**
   * A decision on the team's locked board, by the caller resolved against the team's roster.
   *
   * @param createBoard whether a team without a board gets one (otherwise: not found)
   * @param target a task the decision addresses, loaded even if it is a tombstone
   */
  private <R> Mono<R> onBoard(
      Caller caller,
      UUID teamId,
      boolean createBoard,
      @Nullable TaskId target,
      BoardDecision<R> decision) {
    return BoardCaller.resolve(access, caller, teamId)
        .flatMap(
            a ->
                boards.change(
                    a, createBoard, target, (board, now) -> decision.decide(a, board, now)));
  }

  private static TaskOutcome outcome(Board board, Task task, List<WriteScopes.Overlap> warnings) {
    return new TaskOutcome(task, warnings, TaskOutcome.affected(board.events()));
  }

  private Mono<Task> read(UUID teamId, TaskId id) {
    return store.find(teamId, id).switchIfEmpty(Mono.error(() -> BoardProblems.taskNotFound(id)));
  }

  /** Overlaps of the task's scopes with the team's other active tasks; none without scopes. */
  private Mono<List<WriteScopes.Overlap>> overlaps(UUID teamId, Task task) {
    if (task.writeScopes().isEmpty()) {
      return Mono.just(List.of());
    }
    return store
        .activeScopes(teamId, task.id())
        .map(others -> WriteScopes.overlaps(task.id(), task.writeScopes(), others));
  }

  /**
   * Writes one task decided from {@code read} with a compare-and-set, and its events, in one
   * transaction. When another writer got there first, the decision is taken again on the task as it
   * is now, which names the refusal (a stale revision at least).
   */
  private Mono<TaskOutcome> writeOne(
      BoardCaller a,
      Task read,
      Task written,
      long expectedRevision,
      UnaryOperator<Task> decide,
      List<BoardEvent> happened,
      List<WriteScopes.Overlap> warnings) {
    return transactions.transactional(
        store
            .replace(a.teamId(), written, read.revision())
            .flatMap(
                applied -> {
                  if (applied) {
                    return events
                        .publish(a.teamId(), a.ownerId(), happened)
                        .thenReturn(new TaskOutcome(written, warnings, List.of()));
                  }
                  return refusal(a.teamId(), read.id(), expectedRevision, decide);
                }));
  }

  /**
   * Why a write that lost its compare-and-set was refused: the decision taken again on the task as
   * it is now names the rule it breaks, or else the revision moved on.
   */
  private <T> Mono<T> refusal(
      UUID teamId, TaskId id, long expectedRevision, UnaryOperator<Task> decide) {
    return Mono.defer(
        () ->
            read(teamId, id)
                .flatMap(
                    current -> {
                      decide.apply(current);
                      return Mono.error(TaskProblem.staleRevision(current, expectedRevision));
                    }));
  }

  private <T> Mono<T> timed(String operation, Mono<T> work) {
    return Mono.defer(
        () -> {
          long started = System.nanoTime();
          return work.doOnEach(
              signal -> {
                if (signal.isOnNext() || signal.isOnError()) {
                  String outcome =
                      signal.isOnNext()
                          ? "done"
                          : signal.getThrowable() instanceof DomainFailure failure
                              ? failure.code()
                              : "error";
                  Timer.builder("agentteams.taskboard." + operation)
                      .description("Latency of task " + operation + "s by outcome")
                      .tag("outcome", outcome)
                      .register(meters)
                      .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                }
              });
        });
  }
}
