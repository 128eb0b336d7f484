package io.agentteams.sdk.tasks;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One task of a plan to import.
 *
 * @param id its key in the plan (normalised: lowercase, illegal characters replaced, duplicates
 *     renamed; generated when missing)
 * @param title its title
 * @param description what it is about
 * @param dependsOn keys of plan tasks that must complete first
 * @param writeScopes path prefixes it writes to
 * @param assignee a member to give it to
 */
public record PlannedTask(
    @Nullable String id,
    String title,
    @Nullable String description,
    @Nullable List<String> dependsOn,
    @Nullable List<String> writeScopes,
    @Nullable String assignee) {

  /** A plan task with a key, a title and the keys it depends on. */
  public static PlannedTask of(String id, String title, String description, String... dependsOn) {
    return new PlannedTask(id, title, description, List.of(dependsOn), null, null);
  }
}
