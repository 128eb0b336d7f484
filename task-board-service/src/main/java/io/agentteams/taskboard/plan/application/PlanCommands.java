package io.agentteams.taskboard.plan.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.taskboard.PlanApproved;
import io.agentteams.contracts.taskboard.PlanImported;
import io.agentteams.contracts.taskboard.PlanRename;
import io.agentteams.contracts.taskboard.PlanTask;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.taskboard.plan.domain.Plan;
import io.agentteams.taskboard.plan.domain.PlanBoard;
import io.agentteams.taskboard.plan.domain.PlanNormalizer;
import io.agentteams.taskboard.plan.domain.PlanProblems;
import io.agentteams.taskboard.plan.domain.PlanStatus;
import io.agentteams.taskboard.plan.persistence.PlanStore;
import io.agentteams.taskboard.plan.persistence.RunPlanStore;
import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.application.BoardCaller;
import io.agentteams.taskboard.task.application.BoardTransactions;
import io.agentteams.taskboard.task.domain.Board;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.domain.TaskLimits;
import io.agentteams.taskboard.task.domain.WriteScopes;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * Imports a plan atomically (normalised, DAG-checked, every task or none) and lets the team's owner
 * approve a held one.
 */
@Service
public class PlanCommands {

  private final RosterAccess access;
  private final BoardTransactions boards;
  private final PlanStore plans;
  private final RunPlanStore runPlans;
  private final Outbox outbox;
  private final TaskLimits limits;
  private final int planMaxTasks;

  public PlanCommands(
      RosterAccess access,
      BoardTransactions boards,
      PlanStore plans,
      RunPlanStore runPlans,
      Outbox outbox,
      TaskBoardProperties properties) {
    this.access = access;
    this.boards = boards;
    this.plans = plans;
    this.runPlans = runPlans;
    this.outbox = outbox;
    this.limits = properties.limits();
    this.planMaxTasks = properties.planMaxTasks();
  }

  /** What an import did. */
  public record Imported(Plan plan, List<Task> tasks, List<WriteScopes.Overlap> warnings) {}

  /** What an approval did: the plan and its tasks' status afterwards. */
  public record Approved(Plan plan, List<Task> tasks, List<TaskId> nowReady) {}

  /**
   * Normalises the plan and adds its tasks to the board in one transaction, held for the owner's
   * approval when {@code hold}.
   */
  public Mono<Imported> importPlan(
      Caller caller, UUID teamId, List<PlanNormalizer.Item> items, boolean hold) {
    if (items.size() > planMaxTasks) {
      return Mono.error(PlanProblems.tooManyTasks(planMaxTasks, items.size()));
    }
    return BoardCaller.resolve(access, caller, teamId)
        .flatMap(
            a -> {
              // Normalised before the board is locked: a malformed plan costs no transaction.
              PlanNormalizer.Result normalised = PlanNormalizer.normalise(items);
              UUID planId = UUID.randomUUID();
              return boards.change(
                  a,
                  true,
                  null,
                  (board, now) ->
                      Mono.fromCallable(() -> imported(a, board, planId, normalised, hold, now)),
                  imported -> recordImport(a, imported));
            });
  }

  /** The plan's tasks added to the locked board, and the plan that names them. */
  Imported imported(
      BoardCaller a,
      Board board,
      UUID planId,
      PlanNormalizer.Result normalised,
      boolean hold,
      Instant now) {
    List<Task> created =
        PlanBoard.importPlan(
            board, a.actor(), planId, normalised.tasks(), hold, a.members(), limits, now);
    List<Plan.Entry> entries =
        created.stream()
            .map(t -> new Plan.Entry(String.valueOf(t.origin().planKey()), t.id()))
            .toList();
    Plan plan =
        Plan.imported(planId, a.teamId(), a.actor().label(), hold, entries, normalised, now);
    return new Imported(plan, created, warnings(board, created));
  }

  /** Stores the imported plan and announces it, in the board's transaction. */
  Mono<Void> recordImport(BoardCaller a, Imported imported) {
    return plans
        .insert(imported.plan())
        .then(
            outbox.append(
                Topics.TASK_EVENTS,
                a.teamId().toString(),
                a.ownerId(),
                imported.plan().revision(),
                importedEvent(imported)))
        .then();
  }

  /**
   * The team's owner approves a held plan; its tasks become claimable as they are ready. A team
   * run's plan is approved or rejected through its run alone, so it has one authority.
   */
  public Mono<Approved> approve(Caller caller, UUID teamId, UUID planId, long expectedRevision) {
    return BoardCaller.resolve(access, caller, teamId)
        .flatMap(
            a ->
                runPlans
                    .isRunPlan(planId, teamId)
                    .flatMap(
                        ofRun ->
                            ofRun
                                ? Mono.<Approved>error(PlanProblems.ofRun(planId))
                                : approveHeld(a, planId, expectedRevision)))
        .onErrorMap(
            e -> e instanceof DomainFailure f && f.code().equals("board-not-found"),
            e -> PlanProblems.planNotFound(planId));
  }

  /** Approves the held plan on the caller's board, in one transaction with its events. */
  Mono<Approved> approveHeld(BoardCaller a, UUID planId, long expectedRevision) {
    return boards.change(
        a,
        false,
        null,
        (board, now) -> approved(a, board, planId, expectedRevision, now),
        approved -> recordApproval(a, approved));
  }

  /** The plan approved under its lock, and its held tasks released on the locked board. */
  private Mono<Approved> approved(
      BoardCaller a, Board board, UUID planId, long expectedRevision, Instant now) {
    return plans
        .lock(a.teamId(), planId)
        .switchIfEmpty(Mono.error(() -> PlanProblems.planNotFound(planId)))
        .flatMap(
            plan -> {
              Plan approved = plan.approve(a.actor(), expectedRevision, now);
              Board.Consequences consequences = PlanBoard.approve(board, a.actor(), planId, now);
              return plans
                  .approve(approved, plan.revision())
                  .thenReturn(
                      new Approved(approved, tasksOf(board, approved), consequences.nowReady()));
            });
  }

  /** Announces the approval, in the board's transaction. */
  private Mono<Void> recordApproval(BoardCaller a, Approved approved) {
    Plan plan = approved.plan();
    return outbox
        .append(
            Topics.TASK_EVENTS,
            a.teamId().toString(),
            a.ownerId(),
            plan.revision(),
            new PlanApproved(
                a.teamId().toString(),
                plan.id().toString(),
                String.valueOf(plan.approvedBy()),
                plan.tasks().stream().map(e -> e.taskId().value()).toList(),
                approved.nowReady().stream().map(TaskId::value).toList(),
                plan.revision()))
        .then();
  }

  /** A plan of the team, for its members and its owner. */
  public Mono<Plan> find(Caller caller, UUID teamId, UUID planId) {
    return BoardCaller.resolve(access, caller, teamId)
        .then(plans.find(teamId, planId))
        .switchIfEmpty(Mono.error(() -> PlanProblems.planNotFound(planId)));
  }

  private static List<Task> tasksOf(Board board, Plan plan) {
    Set<TaskId> ids = new HashSet<>();
    plan.tasks().forEach(e -> ids.add(e.taskId()));
    return board.tasks().stream().filter(t -> ids.contains(t.id())).toList();
  }

  /** Overlaps of the plan's tasks, each pair once. */
  private static List<WriteScopes.Overlap> warnings(Board board, List<Task> created) {
    Set<TaskId> plan = new HashSet<>();
    created.forEach(t -> plan.add(t.id()));
    List<WriteScopes.Overlap> warnings = new ArrayList<>();
    for (Task task : created) {
      for (WriteScopes.Overlap overlap : board.overlaps(task)) {
        if (!plan.contains(overlap.otherTask()) || overlap.otherTask().compareTo(task.id()) < 0) {
          warnings.add(overlap);
        }
      }
    }
    return warnings;
  }

  private static PlanImported importedEvent(Imported imported) {
    Plan plan = imported.plan();
    Map<TaskId, String> keys = new HashMap<>();
    plan.tasks().forEach(e -> keys.put(e.taskId(), e.key()));
    List<PlanTask> tasks = new ArrayList<>();
    for (Task task : imported.tasks()) {
      tasks.add(
          new PlanTask(
              keys.get(task.id()),
              task.id().value(),
              task.title(),
              task.definition().description(),
              task.owner(),
              task.dependencies().stream().map(keys::get).toList()));
    }
    return new PlanImported(
        plan.teamId().toString(),
        plan.id().toString(),
        plan.importedBy(),
        plan.status() == PlanStatus.AWAITING_APPROVAL,
        tasks,
        plan.renamed().stream()
            .map(r -> new PlanRename(r.original(), r.key(), r.reason().wire()))
            .toList(),
        plan.generated(),
        TaskEvents.warnings(imported.warnings()),
        plan.revision());
  }
}
