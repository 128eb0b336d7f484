package io.agentteams.taskboard.task.application;

import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskCursor;
import io.agentteams.taskboard.task.domain.TaskFilter;
import java.util.List;
import java.util.UUID;

/**
 * Up to one page of a team's tasks, in id order, before the response's byte budget is applied.
 *
 * @param teamId the team
 * @param filter what the listing holds
 * @param tasks the tasks, at most the page size
 * @param more whether the filter holds tasks after the last of these
 */
public record TaskListing(UUID teamId, TaskFilter filter, List<Task> tasks, boolean more) {

  public TaskListing {
    tasks = List.copyOf(tasks);
  }

  /** The cursor of the page that continues after {@code last}, one of these tasks. */
  public String cursorAfter(Task last) {
    return new TaskCursor(last.id(), filter.fingerprint(teamId)).encode();
  }
}
