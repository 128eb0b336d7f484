package io.agentteams.contracts.taskboard;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One task of an imported plan: its normalised key, the board id it received, and what it asks of
 * whom. Events written before the last four fields existed read them as null and empty.
 *
 * @param key the task's key in the plan, as the board normalised it
 * @param taskId the board's id for it
 * @param title its title
 * @param description what it asks
 * @param assignee the member it is reserved for, if any
 * @param dependencies keys of the plan's tasks it depends on, as normalised
 */
public record PlanTask(
    String key,
    long taskId,
    @Nullable String title,
    @Nullable String description,
    @Nullable String assignee,
    List<String> dependencies) {

  public PlanTask {
    dependencies = dependencies == null ? List.of() : List.copyOf(dependencies);
  }
}
