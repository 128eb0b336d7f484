package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/**
 * A task became blocked as a consequence of another change.
 *
 * @param reason {@code dependency_missing}, {@code dependency_failed}, {@code dependency_cancelled}
 *     or {@code dependency_blocked}
 * @param blockedBy the dependency that blocks it
 */
public record TaskBlocked(
    String teamId,
    long taskId,
    long revision,
    String reason,
    long blockedBy,
    String cause,
    @Nullable Long causeTaskId)
    implements EventPayload {

  public static final String TYPE = "TaskBlocked";

  @Override
  public String eventType() {
    return TYPE;
  }
}
