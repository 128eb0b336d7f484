package io.agentteams.taskboard.task.domain;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One task of a normalised plan: its dependencies name other keys of the same plan.
 *
 * @param key the task's normalised, unique key in its plan
 * @param assignee a member to assign it to, if the plan names one
 */
public record PlannedTask(
    String key,
    @Nullable String title,
    @Nullable String description,
    List<String> dependencies,
    List<String> writeScopes,
    @Nullable String assignee) {

  public PlannedTask {
    dependencies = List.copyOf(dependencies);
    writeScopes = List.copyOf(writeScopes);
  }
}
