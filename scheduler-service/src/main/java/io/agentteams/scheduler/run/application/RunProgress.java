package io.agentteams.scheduler.run.application;

import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.contracts.taskboard.PlanImported;
import io.agentteams.contracts.taskboard.PlanRefused;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.run.RunProperties;
import io.agentteams.scheduler.run.domain.JobOrder;
import io.agentteams.scheduler.run.domain.Plan;
import io.agentteams.scheduler.run.domain.PlanTask;
import io.agentteams.scheduler.run.domain.Run;
import io.agentteams.scheduler.run.domain.RunOptions;
import io.agentteams.scheduler.run.domain.RunState;
import io.agentteams.scheduler.run.domain.WrittenTask;
import io.agentteams.scheduler.run.messaging.RunEvents;
import io.agentteams.scheduler.run.persistence.RunStore;
import io.agentteams.scheduler.run.planning.PlanReader;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Moves runs on as their jobs end and as the task board answers their plans. It is called for every
 * {@code JobResultRecorded} of the scheduler's own topic and every {@code PlanImported} or {@code
 * PlanRefused} of the board's, inside the consumer's transaction that also marks the event
 * processed: a redelivered event changes nothing, and a service stopped mid-step leaves the step
 * undone and redone on the next delivery, so each task's job is created exactly once.
 *
 * <p>The planner's answer is read here, tolerantly, into tasks as written; the board owns plans, so
 * the run hands them over ({@code RunPlanSubmitted}, in the transaction that records the answer)
 * and follows the board's import: its normalised keys and dependencies, or its refusal.
 */
@Service
public class RunProgress {

  private final RunStore runs;
  private final JobStore jobs;
  private final Rosters rosters;
  private final RunSteps steps;
  private final RunEvents runEvents;
  private final TransactionalOperator transactions;
  private final int maxTasks;
  private final Clock clock;

  RunProgress(
      RunStore runs,
      JobStore jobs,
      Rosters rosters,
      RunSteps steps,
      RunEvents runEvents,
      TransactionalOperator transactions,
      RunProperties properties,
      Clock clock) {
    this.runs = runs;
    this.jobs = jobs;
    this.rosters = rosters;
    this.steps = steps;
    this.runEvents = runEvents;
    this.transactions = transactions;
    this.maxTasks = properties.maxTasks();
    this.clock = clock;
  }

  /** A job ended: if a run created it, the run takes its result. */
  public Mono<Void> on(JobResultRecorded event) {
    UUID jobId = UUID.fromString(event.jobId());
    return transactions.transactional(
        runs.runJob(jobId)
            .flatMap(
                role ->
                    runs.lock(role.runId())
                        .filter(run -> !run.state().finished())
                        .flatMap(
                            run ->
                                jobs.find(jobId)
                                    .zipWith(rosters.find(run.teamId()))
                                    .flatMap(
                                        found -> advance(run, role, found.getT1(), found.getT2()))))
            .then());
  }

  /** The task board imported a plan: if it is a run's (the plan's id is the run's), it goes on. */
  public Mono<Void> on(PlanImported event) {
    return whilePlanning(
        event.planId(),
        event.teamId(),
        (run, roster, now) ->
            steps.finish(
                run, run.planned(plan(event), RunCommands.members(roster), now), roster, now));
  }

  /** The task board refused a run's plan: the run fails with the board's reason. */
  public Mono<Void> on(PlanRefused event) {
    return whilePlanning(
        event.planId(),
        event.teamId(),
        (run, roster, now) -> {
          run.planRefused("the task board refused the plan: " + event.reason(), now);
          return steps.finish(run, List.of(), roster, now);
        });
  }

  /** What the board's answer does to a run still planning, with its roster. */
  @FunctionalInterface
  private interface PlanAnswer {
    Mono<?> apply(Run run, Roster roster, Instant now);
  }

  /**
   * Applies the board's answer to the run it names, under the run's lock, if the run is that team's
   * and still planning (a redelivered answer finds it past planning and does nothing).
   */
  private Mono<Void> whilePlanning(String planId, String teamId, PlanAnswer answer) {
    return transactions.transactional(
        runs.lock(UUID.fromString(planId))
            .filter(run -> run.teamId().toString().equals(teamId))
            .filter(run -> run.state() == RunState.PLANNING)
            .flatMap(
                run ->
                    rosters
                        .find(run.teamId())
                        .flatMap(roster -> answer.apply(run, roster, clock.instant())))
            .then());
  }

  /** The plan as the board imported it: its keys, dependencies and assignees, in plan order. */
  private static Plan plan(PlanImported event) {
    List<PlanTask> tasks = new ArrayList<>();
    for (io.agentteams.contracts.taskboard.PlanTask task : event.tasks()) {
      String title = task.title() == null ? task.key() : task.title();
      tasks.add(
          new PlanTask(
              task.key(),
              Objects.requireNonNull(task.assignee(), "a run's plan task has an assignee"),
              title,
              task.description() == null || task.description().isBlank()
                  ? title
                  : task.description(),
              task.dependencies()));
    }
    return new Plan(tasks);
  }

  private Mono<Run> advance(Run run, RunStore.RunJob role, Job job, Roster roster) {
    Instant now = clock.instant();
    boolean completed = job.state() == JobState.COMPLETED;
    String text = job.outcome() == null ? "" : job.outcome().text();
    List<String> members = RunCommands.members(roster);
    if (role.role() == JobOrder.Role.PLAN) {
      List<WrittenTask> submitted = planned(run, completed, text, members, now);
      return steps
          .finish(run, List.of(), roster, now)
          .flatMap(
              finished ->
                  submitted == null
                      ? Mono.just(finished)
                      : runEvents.planSubmitted(finished, submitted).thenReturn(finished));
    }
    List<JobOrder> orders =
        switch (role.role()) {
          case TASK ->
              !completed && text.startsWith(Run.BUDGET_STOP)
                  ? run.stoppedByBudget(Objects.requireNonNull(role.taskKey()), text, now)
                  : run.taskEnded(
                      Objects.requireNonNull(role.taskKey()), completed, text, members, now);
          case SYNTHESIS -> {
            run.synthesised(completed, text, now);
            yield List.of();
          }
          case PLAN -> List.of();
        };
    return steps.finish(run, orders, roster, now);
  }

  /**
   * Reads the planner's answer: the tasks the run hands to the board (the fallback's when the
   * answer is unread and the run allows it), or null when the run failed instead.
   */
  private @Nullable List<WrittenTask> planned(
      Run run, boolean completed, String answer, List<String> members, Instant now) {
    if (run.state() != RunState.PLANNING) {
      return null;
    }
    if (!completed) {
      run.plannerFailed(answer, now);
      return null;
    }
    PlanReader.Reading reading = PlanReader.read(answer, members);
    if (reading instanceof PlanReader.Read read) {
      if (read.tasks().size() > maxTasks) {
        run.planRefused(
            "the plan has " + read.tasks().size() + " tasks; a run follows at most " + maxTasks,
            now);
        return null;
      }
      run.submitted(read.tasks().size(), false, now);
      return read.tasks();
    }
    String why = ((PlanReader.Unreadable) reading).why();
    if (run.options().onUnreadablePlan() == RunOptions.UnreadablePlan.FALLBACK) {
      List<WrittenTask> fallback = Plan.fallback(members, run.objective());
      run.submitted(fallback.size(), true, now);
      return fallback;
    }
    run.planRefused("no plan could be read from the planner's answer (" + why + ")", now);
    return null;
  }
}
