package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A task was completed.
 *
 * @param nowReady dependents that became ready in the same transaction (each also has its own
 *     {@link TaskBecameReady})
 */
public record TaskCompleted(
    String teamId,
    long taskId,
    @Nullable String owner,
    String completedBy,
    @Nullable String result,
    long revision,
    List<Long> nowReady)
    implements EventPayload {

  public static final String TYPE = "TaskCompleted";

  public TaskCompleted {
    nowReady = List.copyOf(nowReady);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
