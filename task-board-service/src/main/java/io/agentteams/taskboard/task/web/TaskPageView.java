package io.agentteams.taskboard.task.web;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a team's tasks as the API shows it.
 *
 * @param items the tasks, in id order
 * @param nextCursor pass it back as {@code cursor}, with the same filter, for the next page; null
 *     on the last page
 */
public record TaskPageView(List<TaskView> items, @Nullable String nextCursor) {

  public TaskPageView {
    items = List.copyOf(items);
  }
}
