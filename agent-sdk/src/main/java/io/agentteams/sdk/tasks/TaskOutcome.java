package io.agentteams.sdk.tasks;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A task after a change, with what the change caused.
 *
 * @param task the task as it is now
 * @param warnings write scopes that overlap another active task's (never a refusal)
 * @param effects other tasks whose status changed because of it (e.g. dependents became ready)
 */
public record TaskOutcome(Task task, List<Warning> warnings, List<Effect> effects) {

  /**
   * Two active tasks write to overlapping paths.
   *
   * @param kind the kind of warning
   * @param taskId this task
   * @param scope its scope
   * @param otherTaskId the other task
   * @param otherScope the other task's scope
   */
  public record Warning(
      String kind, long taskId, String scope, long otherTaskId, String otherScope) {}

  /**
   * Another task's new status.
   *
   * @param taskId the task
   * @param status its status now
   * @param blockedReason why it is blocked, if it is
   * @param blockedBy the dependency that blocks it
   * @param revision its revision now
   */
  public record Effect(
      long taskId,
      String status,
      @Nullable String blockedReason,
      @Nullable Long blockedBy,
      long revision) {}
}
