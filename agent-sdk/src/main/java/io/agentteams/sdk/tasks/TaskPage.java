package io.agentteams.sdk.tasks;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a team's tasks, in id order.
 *
 * @param items the tasks
 * @param nextCursor pass it, with the same filter, for the next page; null on the last one
 */
public record TaskPage(List<Task> items, @Nullable String nextCursor) {

  public TaskPage {
    items = items == null ? List.of() : List.copyOf(items);
  }
}
