package io.agentteams.taskboard.task.application;

import io.agentteams.taskboard.task.domain.BoardEvent;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.WriteScopes;
import java.util.ArrayList;
import java.util.List;

/**
 * What a change did: the task afterwards, the write-scope overlaps it has with other active tasks
 * (warnings, never refusals), and the other tasks whose status changed because of it.
 */
public record TaskOutcome(Task task, List<WriteScopes.Overlap> warnings, List<Task> affected) {

  public TaskOutcome {
    warnings = List.copyOf(warnings);
    affected = List.copyOf(affected);
  }

  /** The tasks whose status a change caused to move, from the board's events. */
  static List<Task> affected(List<BoardEvent> events) {
    List<Task> affected = new ArrayList<>();
    for (BoardEvent event : events) {
      if (event instanceof BoardEvent.BecameReady e) {
        affected.add(e.task());
      } else if (event instanceof BoardEvent.BecamePending e) {
        affected.add(e.task());
      } else if (event instanceof BoardEvent.Blocked e) {
        affected.add(e.task());
      }
    }
    return affected;
  }
}
