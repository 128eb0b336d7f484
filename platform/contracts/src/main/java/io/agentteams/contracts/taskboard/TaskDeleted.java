package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/**
 * A task was deleted. It stays as a tombstone and its id is never reused; {@code nowBlocked} lists
 * the tasks that became blocked because a dependency is now missing.
 */
public record TaskDeleted(
    String teamId, long taskId, String deletedBy, long revision, List<Long> nowBlocked)
    implements EventPayload {

  public static final String TYPE = "TaskDeleted";

  public TaskDeleted {
    nowBlocked = List.copyOf(nowBlocked);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
