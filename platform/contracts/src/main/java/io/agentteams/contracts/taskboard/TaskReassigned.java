package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/**
 * A task was given to a member: a claimed task keeps running under its new owner (whose claim
 * time-out starts afresh), an unclaimed one is reserved for that member.
 */
public record TaskReassigned(
    String teamId,
    long taskId,
    @Nullable String previousOwner,
    String owner,
    String assignedBy,
    String status,
    long revision)
    implements EventPayload {

  public static final String TYPE = "TaskReassigned";

  @Override
  public String eventType() {
    return TYPE;
  }
}
