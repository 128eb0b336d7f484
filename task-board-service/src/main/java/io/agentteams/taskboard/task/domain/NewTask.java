package io.agentteams.taskboard.task.domain;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A task as a member asks to create it.
 *
 * @param owner a member to assign it to right away (the lead may name anyone, others only
 *     themselves)
 */
public record NewTask(
    @Nullable String title,
    @Nullable String description,
    List<Long> dependencies,
    List<String> writeScopes,
    @Nullable String owner) {

  public NewTask {
    dependencies = List.copyOf(dependencies);
    writeScopes = List.copyOf(writeScopes);
  }
}
