package io.agentteams.scheduler.run.web;

import io.agentteams.scheduler.run.domain.PlanTask;
import io.agentteams.scheduler.run.domain.Run;
import io.agentteams.scheduler.run.domain.RunEntry;
import io.agentteams.scheduler.run.domain.RunOptions;
import io.agentteams.scheduler.run.domain.RunTask;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A team run as the API shows it to its owner: its options, state and round, the plan's tasks with
 * their results or errors, and the run's result or the reason it ended without one.
 */
public record RunView(
    UUID id,
    UUID teamId,
    String objective,
    String state,
    int round,
    OptionsView options,
    boolean planFallback,
    @Nullable UUID plannerJobId,
    @Nullable UUID synthesisJobId,
    List<TaskView> tasks,
    @Nullable String result,
    @Nullable String reason,
    Instant createdAt,
    Instant updatedAt,
    @Nullable Instant finishedAt) {

  static RunView of(Run run) {
    RunOptions o = run.options();
    return new RunView(
        run.id(),
        run.teamId(),
        run.objective(),
        run.state().wire(),
        run.round(),
        new OptionsView(
            o.planner(),
            o.synthesiser(),
            o.maxRounds(),
            o.concurrency(),
            o.continueOnMemberError(),
            o.requirePlanApproval(),
            o.onUnreadablePlan().wire()),
        run.planFallback(),
        run.plannerJobId(),
        run.synthesisJobId(),
        run.tasks().stream().map(TaskView::of).toList(),
        run.result(),
        run.reason(),
        run.createdAt(),
        run.updatedAt(),
        run.finishedAt());
  }

  /** How the run is run. */
  public record OptionsView(
      String planner,
      String synthesiser,
      int maxRounds,
      int concurrency,
      boolean continueOnMemberError,
      boolean requirePlanApproval,
      String onUnreadablePlan) {}

  /** One task of the plan and how it went. */
  public record TaskView(
      String id,
      String assignee,
      String title,
      String instruction,
      List<String> dependencies,
      String state,
      int round,
      @Nullable UUID jobId,
      @Nullable String result,
      @Nullable String error) {

    static TaskView of(RunTask task) {
      PlanTask d = task.definition();
      return new TaskView(
          d.key(),
          d.assignee(),
          d.title(),
          d.instruction(),
          d.dependencies(),
          task.state().wire(),
          task.round(),
          task.jobId(),
          task.result(),
          task.error());
    }
  }

  /** One entry of the run's timeline. */
  public record EntryView(
      long sequence,
      String kind,
      String state,
      int round,
      @Nullable String taskId,
      @Nullable String member,
      @Nullable UUID jobId,
      String detail,
      Instant at) {

    static EntryView of(RunEntry e) {
      return new EntryView(
          e.sequence(),
          e.kind(),
          e.state().wire(),
          e.round(),
          e.taskKey(),
          e.member(),
          e.jobId(),
          e.detail(),
          e.at());
    }
  }
}
