package io.agentteams.sdk.tasks;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A task to create.
 *
 * @param title its title
 * @param description what it is about
 * @param dependencies ids of existing tasks that must complete first
 * @param writeScopes path prefixes it writes to
 * @param owner a member to give it to (the lead only, for another member)
 */
public record NewTask(
    String title,
    @Nullable String description,
    @Nullable List<Long> dependencies,
    @Nullable List<String> writeScopes,
    @Nullable String owner) {

  /** A task with only a title. */
  public static NewTask titled(String title) {
    return new NewTask(title, null, null, null, null);
  }
}
