package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A task failed.
 *
 * @param nowBlocked tasks that became blocked because of it, directly or transitively
 */
public record TaskFailed(
    String teamId,
    long taskId,
    @Nullable String owner,
    String failedBy,
    String error,
    long revision,
    List<Long> nowBlocked)
    implements EventPayload {

  public static final String TYPE = "TaskFailed";

  public TaskFailed {
    nowBlocked = List.copyOf(nowBlocked);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
