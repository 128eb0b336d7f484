package io.agentteams.contracts.taskboard;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A task as an event describes it right after the change.
 *
 * @param taskId the team-local numeric id
 * @param title the title
 * @param status {@code awaiting_approval}, {@code ready}, {@code pending}, {@code blocked}, {@code
 *     in_progress}, {@code completed}, {@code failed}, {@code cancelled} or {@code deleted}
 * @param blockedReason why a blocked task is blocked ({@code dependency_missing}, {@code
 *     dependency_failed}, {@code dependency_cancelled}, {@code dependency_blocked})
 * @param blockedBy the dependency that blocks it
 * @param owner the member that owns (claimed or was assigned) the task
 * @param dependencies the tasks it waits for
 * @param writeScopes normalised path prefixes it intends to write
 * @param planId the plan it was imported with, if any
 * @param planKey its normalised id in that plan
 * @param revision the task's revision
 */
public record TaskSnapshot(
    long taskId,
    String title,
    String status,
    @Nullable String blockedReason,
    @Nullable Long blockedBy,
    @Nullable String owner,
    List<Long> dependencies,
    List<String> writeScopes,
    @Nullable String planId,
    @Nullable String planKey,
    long revision) {

  public TaskSnapshot {
    dependencies = List.copyOf(dependencies);
    writeScopes = List.copyOf(writeScopes);
  }
}
