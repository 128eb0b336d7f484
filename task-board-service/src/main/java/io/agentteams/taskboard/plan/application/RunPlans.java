package io.agentteams.taskboard.plan.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.RunPlanSubmitted;
import io.agentteams.contracts.scheduler.RunProgressed;
import io.agentteams.contracts.taskboard.PlanRefused;
import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.taskboard.plan.domain.PlanNormalizer;
import io.agentteams.taskboard.plan.domain.PlanProblems;
import io.agentteams.taskboard.plan.domain.PlanStatus;
import io.agentteams.taskboard.plan.persistence.PlanStore;
import io.agentteams.taskboard.plan.persistence.RunPlanStore;
import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.application.BoardCaller;
import io.agentteams.taskboard.task.application.BoardTransactions;
import io.agentteams.taskboard.task.domain.Actor;
import io.agentteams.taskboard.task.domain.Board;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskLimits;
import io.agentteams.taskboard.task.domain.TaskState;
import io.agentteams.taskboard.task.domain.TaskStatus;
import io.agentteams.taskboard.task.domain.TeamMembers;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * The task board's side of team runs. A run hands its plan over ({@code RunPlanSubmitted}) and the
 * board imports it as it imports any plan (normalised ids, DAG check, limits, every task or none;
 * held when the run requires the owner's approval) under the run's id, so a redelivered submission
 * finds it imported and changes nothing. The board answers {@code PlanImported} or {@code
 * PlanRefused} with the reason, which the run follows. Then the plan's tasks follow the run's
 * progress ({@code RunProgressed}): claimed by the assignee when the run dispatches them, completed
 * with the result or failed with the error, failed with the reason when the run blocks one it could
 * have run, released when the run's plan is approved, cancelled when the run fails or is cancelled.
 *
 * <p>Everything runs inside the consumer's transaction, which also marks the event processed; a
 * refusal is decided before the board changes, so it is answered, never thrown (a thrown refusal
 * would roll the transaction back and the event would be retried to no end).
 */
@Service
public class RunPlans {

  private static final Logger log = LoggerFactory.getLogger(RunPlans.class);

  /** The run's timeline entries the board's tasks follow. */
  private static final Set<String> FOLLOWED =
      Set.of(
          "task.assigned",
          "task.result",
          "task.error",
          "task.blocked",
          "plan.approved",
          "run.failed",
          "run.cancelled");

  private final PlanCommands commands;
  private final PlanStore plans;
  private final RunPlanStore runPlans;
  private final BoardTransactions boards;
  private final Rosters rosters;
  private final Outbox outbox;
  private final TaskLimits limits;
  private final int planMaxTasks;

  RunPlans(
      PlanCommands commands,
      PlanStore plans,
      RunPlanStore runPlans,
      BoardTransactions boards,
      Rosters rosters,
      Outbox outbox,
      TaskBoardProperties properties) {
    this.commands = commands;
    this.plans = plans;
    this.runPlans = runPlans;
    this.boards = boards;
    this.rosters = rosters;
    this.outbox = outbox;
    this.limits = properties.limits();
    this.planMaxTasks = properties.planMaxTasks();
  }

  /** What the board decided about a run's plan. */
  private sealed interface Decision {}

  private record Imported(PlanCommands.Imported imported) implements Decision {}

  private record Refused(DomainFailure failure) implements Decision {}

  /** Imports a run's plan once, or refuses it with the reason. */
  public Mono<Void> submitted(RunPlanSubmitted event, String ownerId) {
    UUID teamId = UUID.fromString(event.teamId());
    UUID planId = UUID.fromString(event.runId());
    return plans
        .find(teamId, planId)
        .map(alreadyImported -> true)
        .switchIfEmpty(
            Mono.defer(() -> importRunPlan(teamId, planId, ownerId, event).thenReturn(true)))
        .then();
  }

  private Mono<Void> importRunPlan(
      UUID teamId, UUID planId, String ownerId, RunPlanSubmitted event) {
    return rosters
        .find(teamId)
        .filter(roster -> roster.status() != TeamStatus.DELETED)
        .flatMap(
            roster -> {
              BoardCaller planner = caller(roster, new Actor.Member(event.planner(), true));
              List<PlanNormalizer.Item> items =
                  event.tasks().stream()
                      .map(
                          t ->
                              new PlanNormalizer.Item(
                                  t.id(),
                                  t.title(),
                                  t.instruction(),
                                  t.dependencies(),
                                  List.of(),
                                  t.assignee()))
                      .toList();
              if (items.size() > planMaxTasks) {
                return refuse(
                    teamId, ownerId, planId, PlanProblems.tooManyTasks(planMaxTasks, items.size()));
              }
              PlanNormalizer.Result normalised;
              try {
                normalised = PlanNormalizer.normalise(items);
              } catch (DomainFailure refused) {
                return refuse(teamId, ownerId, planId, refused);
              }
              return boards
                  .change(
                      planner,
                      true,
                      null,
                      (board, now) ->
                          Mono.fromCallable(
                              () ->
                                  decide(
                                      planner,
                                      board,
                                      planId,
                                      normalised,
                                      event.awaitingApproval(),
                                      now)),
                      decision ->
                          decision instanceof Imported done
                              ? commands
                                  .recordImport(planner, done.imported())
                                  .then(
                                      runPlans.insert(
                                          planId,
                                          teamId,
                                          event.planner(),
                                          done.imported().plan().createdAt()))
                              : refuse(teamId, ownerId, planId, ((Refused) decision).failure()))
                  .then();
            })
        .switchIfEmpty(
            Mono.defer(
                () -> refuse(teamId, ownerId, planId, PlanProblems.runTeamNotFound(teamId))));
  }

  /** The board's decision, made before it changes: a refusal leaves it as it was. */
  private Decision decide(
      BoardCaller planner,
      Board board,
      UUID planId,
      PlanNormalizer.Result normalised,
      boolean hold,
      Instant now) {
    try {
      return new Imported(commands.imported(planner, board, planId, normalised, hold, now));
    } catch (DomainFailure refused) {
      return new Refused(refused);
    }
  }

  private Mono<Void> refuse(UUID teamId, String ownerId, UUID planId, DomainFailure failure) {
    log.info("Refused team run {}'s plan: {}", planId, failure.detail());
    return outbox
        .append(
            Topics.TASK_EVENTS,
            teamId.toString(),
            ownerId,
            1,
            new PlanRefused(teamId.toString(), planId.toString(), failure.code(), failure.detail()))
        .then();
  }

  /** The run's plan's tasks follow one entry of its timeline. */
  public Mono<Void> progressed(RunProgressed event) {
    if (!FOLLOWED.contains(event.kind())) {
      return Mono.empty();
    }
    UUID teamId = UUID.fromString(event.teamId());
    UUID planId = UUID.fromString(event.runId());
    return runPlans
        .isRunPlan(planId, teamId)
        .filter(Boolean::booleanValue)
        .flatMap(ofRun -> rosters.find(teamId))
        .flatMap(
            roster ->
                event.kind().equals("plan.approved")
                    ? approve(roster, planId)
                    : boards
                        .change(
                            caller(roster, lead(roster, event)),
                            false,
                            null,
                            (board, now) -> follow(board, roster, planId, event, now))
                        .then());
  }

  /** The run's approval approves its plan: one decision, the owner's, taken on the run. */
  private Mono<Void> approve(Roster roster, UUID planId) {
    BoardCaller owner = caller(roster, new Actor.TeamOwner(roster.ownerId()));
    return plans
        .find(roster.teamId(), planId)
        .filter(plan -> plan.status() == PlanStatus.AWAITING_APPROVAL)
        .flatMap(plan -> commands.approveHeld(owner, planId, plan.revision()))
        .then();
  }

  private boolean follow(
      Board board, Roster roster, UUID planId, RunProgressed event, Instant now) {
    Actor.Member lead = lead(roster, event);
    if (event.kind().equals("run.failed") || event.kind().equals("run.cancelled")) {
      for (Task task : board.tasks()) {
        if (!planId.equals(task.origin().planId()) || task.deleted()) {
          continue;
        }
        // Read afresh: cancelling one task re-derives its dependents, at a new revision.
        Task current = board.require(task.id());
        if (!current.state().terminal()) {
          attempt(event, current, () -> board.cancel(lead, current.id(), current.revision(), now));
        }
      }
      return true;
    }
    Optional<Task> found =
        board.tasks().stream()
            .filter(t -> planId.equals(t.origin().planId()) && !t.deleted())
            .filter(
                t -> t.origin().planKey() != null && t.origin().planKey().equals(event.taskKey()))
            .findFirst();
    if (found.isEmpty()) {
      return false;
    }
    Task task = found.get();
    String member = event.member() != null ? event.member() : task.owner();
    if (member == null) {
      return false;
    }
    Actor.Member assignee = new Actor.Member(member, false);
    switch (event.kind()) {
      case "task.assigned" -> claimed(board, assignee, task, event, now);
      case "task.result" ->
          claimed(board, assignee, task, event, now)
              .ifPresent(
                  claimed ->
                      attempt(
                          event,
                          claimed,
                          () ->
                              board.complete(
                                  assignee,
                                  claimed.id(),
                                  claimed.revision(),
                                  cut(event.detail(), limits.result()),
                                  limits,
                                  now)));
      case "task.error" -> failed(board, assignee, task, event, event.detail(), now);
      case "task.blocked" -> {
        // A task the run dispatched or could have run but will not (a budget or the chain's limit
        // refused its job, max_rounds): failed with the reason. One whose dependency failed is
        // already blocked on the board by its derivation.
        if (task.status() == TaskStatus.READY || task.state() == TaskState.IN_PROGRESS) {
          failed(board, assignee, task, event, "blocked by the run: " + event.detail(), now);
        }
      }
      default -> {
        return false;
      }
    }
    return true;
  }

  private void failed(
      Board board, Actor.Member assignee, Task task, RunProgressed event, String why, Instant now) {
    claimed(board, assignee, task, event, now)
        .ifPresent(
            claimed ->
                attempt(
                    event,
                    claimed,
                    () ->
                        board.fail(
                            assignee,
                            claimed.id(),
                            claimed.revision(),
                            why.isBlank() ? "failed" : cut(why, limits.error()),
                            limits,
                            now)));
  }

  /**
   * The task in progress under its assignee: claimed now if it is ready (a claim the sweeper let
   * expire while the job ran is claimed again), as it is if the assignee holds it already.
   */
  private Optional<Task> claimed(
      Board board, Actor.Member assignee, Task task, RunProgressed event, Instant now) {
    if (task.state() == TaskState.IN_PROGRESS && assignee.name().equals(task.owner())) {
      return Optional.of(task);
    }
    if (task.status() != TaskStatus.READY) {
      log.warn(
          "Team run {}'s task {} is {} on the board; its {} is not mirrored",
          event.runId(),
          event.taskKey(),
          task.status().wire(),
          event.kind());
      return Optional.empty();
    }
    return attempt(event, task, () -> board.claim(assignee, task.id(), task.revision(), now));
  }

  /**
   * Applies one change to the board. A member may have moved the task on the board meanwhile (it is
   * theirs too): the run's entry is then not mirrored, and the board stays as the member left it.
   */
  private Optional<Task> attempt(
      RunProgressed event, Task task, java.util.function.Supplier<Task> change) {
    try {
      return Optional.of(change.get());
    } catch (DomainFailure refused) {
      log.warn(
          "Team run {}'s {} on task {} is not mirrored on the board: {}",
          event.runId(),
          event.kind(),
          task.id(),
          refused.detail());
      return Optional.empty();
    }
  }

  /** Who cancels a run's tasks on its board: the team's lead, whose authority the run carries. */
  private static Actor.Member lead(Roster roster, RunProgressed event) {
    String name =
        roster
            .lead()
            .map(Roster.Member::name)
            .orElse(event.member() == null ? "lead" : event.member());
    return new Actor.Member(name, true);
  }

  private static BoardCaller caller(Roster roster, Actor actor) {
    return new BoardCaller(
        roster.teamId(),
        roster.ownerId(),
        actor,
        new TeamMembers(
            roster.members().stream().map(Roster.Member::name).collect(Collectors.toSet())));
  }

  /** The text cut to what the bound allows (a run's entries are already short). */
  private static String cut(@Nullable String text, TextBound bound) {
    String value = text == null ? "" : text;
    int max = Math.min(bound.maxChars(), bound.maxBytes() / 4);
    return value.length() <= max ? value : value.substring(0, max);
  }
}
