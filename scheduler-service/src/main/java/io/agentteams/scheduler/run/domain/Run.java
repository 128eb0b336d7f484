package io.agentteams.scheduler.run.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A team run: an objective, planned by one member, dispatched to the team in rounds of ready tasks,
 * and synthesised by one member into the run's result.
 *
 * <p>Each transition checks the run's state, changes it, records timeline entries and returns the
 * jobs it asks for; the caller creates them and reports each back with {@link #dispatched}. A task
 * is dispatched at most once: only a pending task is ever ordered, and it leaves pending in the
 * same step. A round ends when every task it dispatched has settled; the next round takes the tasks
 * whose dependencies all completed, up to the run's concurrency.
 *
 * <p>Its size is one cohesive aggregate's: planning, rounds and synthesis move the one state, task
 * table and timeline of a run, so they stay together.
 */
public final class Run {

  /**
   * What the database keeps of a run.
   *
   * @param id the run
   * @param teamId its team
   * @param ownerId the team's owner
   * @param objective what the team is asked to achieve
   * @param options how it is run
   * @param state where it is
   * @param round the round it is in (0 before the first)
   * @param planFallback whether the plan is the fallback of an unread answer
   * @param tasks the plan's tasks, in the planner's order (empty before the plan)
   * @param plannerJobId the planner's job
   * @param synthesisJobId the synthesiser's job
   * @param result the synthesiser's answer, once completed
   * @param reason why it failed, was rejected or cancelled
   * @param sequence the last timeline entry's sequence
   * @param createdAt when it started
   * @param updatedAt when it last changed
   * @param finishedAt when it ended
   */
  public record Stored(
      UUID id,
      UUID teamId,
      String ownerId,
      String objective,
      RunOptions options,
      RunState state,
      int round,
      boolean planFallback,
      List<RunTask> tasks,
      @Nullable UUID plannerJobId,
      @Nullable UUID synthesisJobId,
      @Nullable String result,
      @Nullable String reason,
      long sequence,
      Instant createdAt,
      Instant updatedAt,
      @Nullable Instant finishedAt) {

    public Stored {
      tasks = List.copyOf(tasks);
    }
  }

  private final UUID id;
  private final UUID teamId;
  private final String ownerId;
  private final String objective;
  private final RunOptions options;
  private final Instant createdAt;
  private RunState state;
  private int round;
  private boolean planFallback;
  private final List<RunTask> tasks = new ArrayList<>();
  private @Nullable UUID plannerJobId;
  private @Nullable UUID synthesisJobId;
  private @Nullable String result;
  private @Nullable String reason;
  private long sequence;
  private Instant updatedAt;
  private @Nullable Instant finishedAt;
  private final List<RunEntry> entries = new ArrayList<>();
  private final List<UUID> cancellations = new ArrayList<>();

  private Run(Stored stored) {
    this.id = stored.id();
    this.teamId = stored.teamId();
    this.ownerId = stored.ownerId();
    this.objective = stored.objective();
    this.options = stored.options();
    this.createdAt = stored.createdAt();
    this.state = stored.state();
    this.round = stored.round();
    this.planFallback = stored.planFallback();
    this.tasks.addAll(stored.tasks());
    this.plannerJobId = stored.plannerJobId();
    this.synthesisJobId = stored.synthesisJobId();
    this.result = stored.result();
    this.reason = stored.reason();
    this.sequence = stored.sequence();
    this.updatedAt = stored.updatedAt();
    this.finishedAt = stored.finishedAt();
  }

  /** How the reason of a job a budget refused or stopped begins (the ledger's problem code). */
  public static final String BUDGET_STOP = "budget-exceeded";

  /**
   * How the reason of a task begins when its job was not created because the run's chain (a run is
   * one request chain) reached its request limit.
   */
  public static final String REQUEST_LIMIT_STOP = "chain-request-limit";

  /** A new run, planning: the returned order asks the planner for the plan. */
  public static Run start(
      UUID id, UUID teamId, String ownerId, String objective, RunOptions options, Instant now) {
    Objects.requireNonNull(objective, "objective");
    Run run =
        new Run(
            new Stored(
                id,
                teamId,
                ownerId,
                objective,
                options,
                RunState.PLANNING,
                0,
                false,
                List.of(),
                null,
                null,
                null,
                null,
                0,
                now,
                now,
                null));
    run.record("run.started", null, options.planner(), null, "objective: " + objective, now);
    return run;
  }

  public static Run restore(Stored stored) {
    return new Run(stored);
  }

  public Stored stored() {
    return new Stored(
        id,
        teamId,
        ownerId,
        objective,
        options,
        state,
        round,
        planFallback,
        tasks,
        plannerJobId,
        synthesisJobId,
        result,
        reason,
        sequence,
        createdAt,
        updatedAt,
        finishedAt);
  }

  /** The planner's job order. */
  public JobOrder plannerOrder(List<String> members) {
    requireState(RunState.PLANNING);
    return new JobOrder(
        JobOrder.Role.PLAN, null, options.planner(), RunPrompts.plan(objective, members));
  }

  /**
   * The job an order asked for was created: the run remembers it, and the timeline names it. Called
   * once per order, in the transaction that created the job.
   */
  public void dispatched(JobOrder order, UUID jobId, Instant now) {
    switch (order.role()) {
      case PLAN -> {
        plannerJobId = jobId;
        record("plan.requested", null, order.member(), jobId, "asked for a plan", now);
      }
      case SYNTHESIS -> {
        synthesisJobId = jobId;
        record("synthesis.started", null, order.member(), jobId, "asked for the result", now);
      }
      case TASK -> {
        String key = Objects.requireNonNull(order.taskKey());
        replace(task(key).withJob(jobId));
        record("task.assigned", key, order.member(), jobId, task(key).definition().title(), now);
      }
    }
  }

  /**
   * The planner's answer was read into tasks (or, unread, replaced by the fallback of one task per
   * member) and handed to the task board, which owns plans: the run waits in {@code planning} for
   * the board's import.
   */
  public void submitted(int taskCount, boolean fallback, Instant now) {
    requireState(RunState.PLANNING);
    planFallback = fallback;
    record(
        "plan.submitted",
        null,
        options.planner(),
        plannerJobId,
        (fallback ? "no plan could be read; fallback of one task per member: " : "")
            + taskCount
            + " tasks handed to the task board",
        now);
  }

  /**
   * The task board imported the plan: the run follows its tasks as the board normalised them, waits
   * for approval if it must, otherwise dispatches its first round. A run no longer planning (it was
   * cancelled meanwhile) or already planned changes nothing.
   */
  public List<JobOrder> planned(Plan plan, List<String> members, Instant now) {
    if (state != RunState.PLANNING || !tasks.isEmpty()) {
      return List.of();
    }
    plan.tasks().forEach(task -> tasks.add(RunTask.pending(task)));
    record(
        "plan.ready",
        null,
        options.planner(),
        plannerJobId,
        (planFallback ? "fallback of one task per member: " : "")
            + plan.tasks().size()
            + " tasks, imported by the task board",
        now);
    if (options.requirePlanApproval()) {
      state = RunState.AWAITING_APPROVAL;
      record("plan.awaiting_approval", null, null, null, "waiting for the owner", now);
      return List.of();
    }
    state = RunState.RUNNING;
    return advance(members, now);
  }

  /**
   * The planner gave no plan the run can follow, or the task board refused it: the run fails,
   * saying why. A run no longer planning changes nothing.
   */
  public void planRefused(String why, Instant now) {
    if (state != RunState.PLANNING) {
      return;
    }
    fail("no plan: " + why, now);
  }

  /** The owner approved the plan: the first round is dispatched. */
  public List<JobOrder> approve(List<String> members, Instant now) {
    requireState(RunState.AWAITING_APPROVAL);
    state = RunState.RUNNING;
    record("plan.approved", null, null, null, "approved by the owner", now);
    return advance(members, now);
  }

  /** The owner rejected the plan: the run ends with the owner's reason. */
  public void reject(String why, Instant now) {
    requireState(RunState.AWAITING_APPROVAL);
    fail("plan rejected: " + why, now);
  }

  /**
   * A task's job ended. A result completes the task; a failure fails it and blocks what depends on
   * it, and either fails the run or, with {@code continue_on_member_error}, is recorded while the
   * run goes on. Once the round's tasks have all settled the next round is dispatched, or the
   * synthesis when none remains. A job ending after the run left {@code running} changes nothing.
   */
  public List<JobOrder> taskEnded(
      String key, boolean completed, String text, List<String> members, Instant now) {
    RunTask task = task(key);
    if (state != RunState.RUNNING || task.state() != TaskState.RUNNING) {
      return List.of();
    }
    String member = task.definition().assignee();
    if (completed) {
      replace(task.completed(text));
      record("task.result", key, member, task.jobId(), text, now);
    } else {
      replace(task.failed(text));
      record("task.error", key, member, task.jobId(), text, now);
      if (!options.continueOnMemberError()) {
        for (RunTask other : List.copyOf(tasks)) {
          if (other.state() == TaskState.RUNNING) {
            replace(other.cancelled());
            if (other.jobId() != null) {
              cancellations.add(other.jobId());
            }
          } else if (other.state() == TaskState.PENDING) {
            replace(other.blocked("the run failed"));
          }
        }
        fail("task '" + key + "' failed: " + text, now);
        return List.of();
      }
    }
    return advance(members, now);
  }

  /**
   * A task's job was refused or stopped by a budget ({@code why} names it): the run stops
   * dispatching. The task and every pending task are blocked with the budget; tasks already running
   * may finish, and once none is, the run fails with the budget as its reason (there is no room for
   * a synthesis either).
   */
  public List<JobOrder> stoppedByBudget(String key, String why, Instant now) {
    RunTask task = task(key);
    if (state != RunState.RUNNING || task.state() != TaskState.RUNNING) {
      return List.of();
    }
    replace(task.blocked(why));
    record("task.blocked", key, task.definition().assignee(), task.jobId(), why, now);
    record("run.budget_stopped", null, null, null, "stopped dispatching: " + why, now);
    return advance(List.of(), now);
  }

  /**
   * The job an order asked for was not created: the run's chain reached its request limit ({@code
   * why} names it). For a task, it is blocked with the limit and the run stops dispatching as at a
   * budget: pending tasks are blocked, running ones may finish, then the run fails. The planner's
   * or synthesiser's job not created ends the run at once.
   */
  public void stoppedAtRequestLimit(JobOrder order, String why, Instant now) {
    String reason = REQUEST_LIMIT_STOP + ": " + why;
    if (order.role() != JobOrder.Role.TASK) {
      abandon("stopped at the chain's request limit: " + why, now);
      return;
    }
    RunTask task = task(Objects.requireNonNull(order.taskKey()));
    if (state != RunState.RUNNING || task.state() != TaskState.RUNNING) {
      return;
    }
    boolean first = stop().isEmpty();
    replace(task.blocked(reason));
    record("task.blocked", task.key(), task.definition().assignee(), null, reason, now);
    if (first) {
      record("run.limit_stopped", null, null, null, "stopped dispatching: " + reason, now);
    }
    advance(List.of(), now);
  }

  /** The synthesiser's job ended: its answer is the run's result. */
  public void synthesised(boolean completed, String text, Instant now) {
    if (state != RunState.SYNTHESISING) {
      return;
    }
    if (!completed) {
      fail("synthesis failed: " + text, now);
      return;
    }
    state = RunState.COMPLETED;
    result = text;
    finishedAt = now;
    record("run.complete", null, options.synthesiser(), synthesisJobId, text, now);
  }

  /** The planner's job ended without an answer: the run fails. */
  public void plannerFailed(String why, Instant now) {
    if (state != RunState.PLANNING) {
      return;
    }
    fail("the planner's job ended without a plan: " + why, now);
  }

  /**
   * The run cannot go on (a member it names left the team): its running jobs are let go and it
   * fails with the reason.
   */
  public void abandon(String why, Instant now) {
    if (state.finished()) {
      return;
    }
    for (RunTask task : List.copyOf(tasks)) {
      if (task.state() == TaskState.RUNNING) {
        replace(task.cancelled());
      } else if (task.state() == TaskState.PENDING) {
        replace(task.blocked("the run failed"));
      }
    }
    fail(why, now);
  }

  /** Cancels the run; its unfinished jobs are listed in {@link #cancellations()}. */
  public void cancel(Instant now) {
    if (state.finished()) {
      throw RunProblems.finished(id, state);
    }
    if (state == RunState.PLANNING && plannerJobId != null) {
      cancellations.add(plannerJobId);
    }
    if (state == RunState.SYNTHESISING && synthesisJobId != null) {
      cancellations.add(synthesisJobId);
    }
    for (RunTask task : List.copyOf(tasks)) {
      if (task.state() == TaskState.RUNNING && task.jobId() != null) {
        cancellations.add(task.jobId());
      }
      if (!task.state().settled()) {
        replace(task.cancelled());
      }
    }
    state = RunState.CANCELLED;
    reason = "cancelled by the owner";
    finishedAt = now;
    record("run.cancelled", null, null, null, reason, now);
  }

  /** Timeline entries recorded since the run was loaded, in order; the caller stores them. */
  public List<RunEntry> entries() {
    return List.copyOf(entries);
  }

  /** Jobs the last transitions want cancelled. */
  public List<UUID> cancellations() {
    return List.copyOf(cancellations);
  }

  private List<JobOrder> advance(List<String> members, Instant now) {
    Optional<String> stop = stop();
    if (stop.isPresent()) {
      for (RunTask task : List.copyOf(tasks)) {
        if (task.state() == TaskState.PENDING) {
          block(task, stop.get(), now);
        }
      }
      if (state == RunState.RUNNING
          && tasks.stream().noneMatch(t -> t.state() == TaskState.RUNNING)) {
        fail(
            (stop.get().startsWith(BUDGET_STOP)
                    ? "stopped at the budget: "
                    : "stopped at the chain's request limit: ")
                + stop.get(),
            now);
      }
      return List.of();
    }
    if (tasks.stream().anyMatch(t -> t.state() == TaskState.RUNNING)) {
      return List.of();
    }
    blockUnreachable(now);
    List<RunTask> pending = tasks.stream().filter(t -> t.state() == TaskState.PENDING).toList();
    if (pending.isEmpty()) {
      return List.of(synthesise(now));
    }
    if (round >= options.maxRounds()) {
      for (RunTask task : pending) {
        block(task, "max_rounds (" + options.maxRounds() + ") reached", now);
      }
      return List.of(synthesise(now));
    }
    List<RunTask> ready = pending.stream().filter(this::dependenciesCompleted).toList();
    if (ready.isEmpty()) {
      for (RunTask task : pending) {
        block(task, "its dependencies cannot be resolved", now);
      }
      return List.of(synthesise(now));
    }
    round++;
    List<RunTask> chosen = ready.stream().limit(options.concurrency()).toList();
    record(
        "round.started",
        null,
        null,
        null,
        "round "
            + round
            + ": "
            + String.join(", ", chosen.stream().map(RunTask::key).toList())
            + (ready.size() > chosen.size()
                ? " (" + (ready.size() - chosen.size()) + " ready tasks wait for the next round)"
                : ""),
        now);
    List<JobOrder> orders = new ArrayList<>();
    for (RunTask task : chosen) {
      replace(task.dispatched(round));
      Map<String, RunTask> dependencies = new LinkedHashMap<>();
      for (String dependency : task.definition().dependencies()) {
        dependencies.put(dependency, task(dependency));
      }
      orders.add(
          new JobOrder(
              JobOrder.Role.TASK,
              task.key(),
              task.definition().assignee(),
              RunPrompts.task(objective, members, task.definition(), dependencies)));
    }
    return orders;
  }

  /**
   * The budget or request limit that stopped a task of this run, if one did: the run dispatches
   * nothing more.
   */
  private Optional<String> stop() {
    return tasks.stream()
        .filter(t -> t.state() == TaskState.BLOCKED && t.error() != null)
        .map(RunTask::error)
        .filter(error -> error.startsWith(BUDGET_STOP) || error.startsWith(REQUEST_LIMIT_STOP))
        .findFirst();
  }

  /** Blocks pending tasks that depend, directly or not, on a task that will never complete. */
  private void blockUnreachable(Instant now) {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (RunTask task : List.copyOf(tasks)) {
        if (task.state() != TaskState.PENDING) {
          continue;
        }
        for (String dependency : task.definition().dependencies()) {
          TaskState of = task(dependency).state();
          if (of == TaskState.FAILED || of == TaskState.BLOCKED || of == TaskState.CANCELLED) {
            block(task, "dependency '" + dependency + "' did not complete", now);
            changed = true;
            break;
          }
        }
      }
    }
  }

  private boolean dependenciesCompleted(RunTask task) {
    return task.definition().dependencies().stream()
        .allMatch(key -> task(key).state() == TaskState.COMPLETED);
  }

  private void block(RunTask task, String why, Instant now) {
    replace(task.blocked(why));
    record("task.blocked", task.key(), task.definition().assignee(), null, why, now);
  }

  private JobOrder synthesise(Instant now) {
    state = RunState.SYNTHESISING;
    updatedAt = now;
    return new JobOrder(
        JobOrder.Role.SYNTHESIS,
        null,
        options.synthesiser(),
        RunPrompts.synthesis(objective, tasks));
  }

  private void fail(String why, Instant now) {
    state = RunState.FAILED;
    reason = why;
    finishedAt = now;
    record("run.failed", null, null, null, why, now);
  }

  private void requireState(RunState expected) {
    if (state != expected) {
      throw RunProblems.wrongState(id, state, expected);
    }
  }

  private void record(
      String kind,
      @Nullable String taskKey,
      @Nullable String member,
      @Nullable UUID jobId,
      String detail,
      Instant now) {
    sequence++;
    updatedAt = now;
    entries.add(new RunEntry(sequence, kind, state, round, taskKey, member, jobId, detail, now));
  }

  private RunTask task(String key) {
    return tasks.stream()
        .filter(t -> t.key().equals(key))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("run " + id + " has no task " + key));
  }

  private void replace(RunTask changed) {
    for (int i = 0; i < tasks.size(); i++) {
      if (tasks.get(i).key().equals(changed.key())) {
        tasks.set(i, changed);
        return;
      }
    }
    throw new IllegalArgumentException("run " + id + " has no task " + changed.key());
  }

  public UUID id() {
    return id;
  }

  public UUID teamId() {
    return teamId;
  }

  public String ownerId() {
    return ownerId;
  }

  public String objective() {
    return objective;
  }

  public RunOptions options() {
    return options;
  }

  public RunState state() {
    return state;
  }

  public int round() {
    return round;
  }

  public boolean planFallback() {
    return planFallback;
  }

  public List<RunTask> tasks() {
    return List.copyOf(tasks);
  }

  public @Nullable UUID plannerJobId() {
    return plannerJobId;
  }

  public @Nullable UUID synthesisJobId() {
    return synthesisJobId;
  }

  public @Nullable String result() {
    return result;
  }

  public @Nullable String reason() {
    return reason;
  }

  public Instant createdAt() {
    return createdAt;
  }

  public Instant updatedAt() {
    return updatedAt;
  }

  public @Nullable Instant finishedAt() {
    return finishedAt;
  }
}
