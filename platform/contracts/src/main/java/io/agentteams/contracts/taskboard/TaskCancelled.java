package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/** A task was cancelled; {@code nowBlocked} lists the tasks that became blocked because of it. */
public record TaskCancelled(
    String teamId, long taskId, String cancelledBy, long revision, List<Long> nowBlocked)
    implements EventPayload {

  public static final String TYPE = "TaskCancelled";

  public TaskCancelled {
    nowBlocked = List.copyOf(nowBlocked);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
