package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/** A task was added to the board, alone or as part of a plan. */
public record TaskCreated(
    String teamId, TaskSnapshot task, String createdBy, List<ScopeOverlap> warnings)
    implements EventPayload {

  public static final String TYPE = "TaskCreated";

  public TaskCreated {
    warnings = List.copyOf(warnings);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
