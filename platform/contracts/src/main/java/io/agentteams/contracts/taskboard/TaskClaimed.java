package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/** A member claimed a ready task; it is now in progress and must heartbeat. */
public record TaskClaimed(
    String teamId,
    long taskId,
    String member,
    String claimedAt,
    long revision,
    List<ScopeOverlap> warnings)
    implements EventPayload {

  public static final String TYPE = "TaskClaimed";

  public TaskClaimed {
    warnings = List.copyOf(warnings);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
