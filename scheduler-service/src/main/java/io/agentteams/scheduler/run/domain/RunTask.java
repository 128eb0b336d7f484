package io.agentteams.scheduler.run.domain;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A plan's task as the run follows it.
 *
 * @param definition what the planner asked
 * @param state where it is
 * @param round the round it was dispatched in (0 if not yet)
 * @param jobId its job, once dispatched
 * @param result its member's answer, once completed
 * @param error why it failed or is blocked
 */
public record RunTask(
    PlanTask definition,
    TaskState state,
    int round,
    @Nullable UUID jobId,
    @Nullable String result,
    @Nullable String error) {

  /** A task not yet dispatched. */
  public static RunTask pending(PlanTask definition) {
    return new RunTask(definition, TaskState.PENDING, 0, null, null, null);
  }

  public String key() {
    return definition.key();
  }

  RunTask dispatched(int inRound) {
    return new RunTask(definition, TaskState.RUNNING, inRound, null, null, null);
  }

  RunTask withJob(UUID job) {
    return new RunTask(definition, state, round, job, result, error);
  }

  RunTask completed(String answer) {
    return new RunTask(definition, TaskState.COMPLETED, round, jobId, answer, null);
  }

  RunTask failed(String why) {
    return new RunTask(definition, TaskState.FAILED, round, jobId, null, why);
  }

  RunTask blocked(String why) {
    return new RunTask(definition, TaskState.BLOCKED, round, jobId, null, why);
  }

  RunTask cancelled() {
    return new RunTask(
        definition, TaskState.CANCELLED, round, jobId, null, "the run was cancelled");
  }
}
