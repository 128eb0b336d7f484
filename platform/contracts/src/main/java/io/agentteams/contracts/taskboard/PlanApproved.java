package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/**
 * The team's owner approved a plan that was held; its tasks left {@code awaiting_approval}.
 *
 * @param nowReady the plan's tasks that are ready now (each also has a {@link TaskBecameReady})
 */
public record PlanApproved(
    String teamId,
    String planId,
    String approvedBy,
    List<Long> taskIds,
    List<Long> nowReady,
    long planRevision)
    implements EventPayload {

  public static final String TYPE = "PlanApproved";

  public PlanApproved {
    taskIds = List.copyOf(taskIds);
    nowReady = List.copyOf(nowReady);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
