package io.agentteams.taskboard.task.web;

import io.agentteams.taskboard.task.application.TaskOutcome;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.WriteScopes;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a change: the task afterwards, write-scope warnings, and the other tasks whose
 * status moved because of it (dependents made ready by a completion, blocked by a failure...).
 */
public record OutcomeView(TaskView task, List<WarningView> warnings, List<EffectView> effects) {

  public static OutcomeView of(TaskOutcome outcome) {
    return new OutcomeView(
        TaskView.of(outcome.task()),
        warnings(outcome.warnings()),
        outcome.affected().stream().map(EffectView::of).toList());
  }

  static List<WarningView> warnings(List<WriteScopes.Overlap> overlaps) {
    return overlaps.stream().map(WarningView::of).toList();
  }

  /** Two active tasks intend to write overlapping paths. */
  public record WarningView(
      String kind, long taskId, String scope, long otherTaskId, String otherScope) {
    static WarningView of(WriteScopes.Overlap overlap) {
      return new WarningView(
          "write_scope_overlap",
          overlap.task().value(),
          overlap.scope().path(),
          overlap.otherTask().value(),
          overlap.otherScope().path());
    }
  }

  /** Another task whose status the change moved. */
  public record EffectView(
      long taskId,
      String status,
      @Nullable String blockedReason,
      @Nullable Long blockedBy,
      long revision) {
    static EffectView of(Task task) {
      return new EffectView(
          task.id().value(),
          task.status().wire(),
          task.blockedReason() == null ? null : task.blockedReason().kind().wire(),
          task.blockedReason() == null ? null : task.blockedReason().dependency().value(),
          task.revision());
    }
  }
}
