package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/**
 * A task's title, description, dependencies or write scopes were edited.
 *
 * @param changed the names of the fields that changed ({@code title}, {@code description}, {@code
 *     dependencies}, {@code write_scopes})
 */
public record TaskUpdated(
    String teamId,
    TaskSnapshot task,
    String updatedBy,
    List<String> changed,
    List<ScopeOverlap> warnings)
    implements EventPayload {

  public static final String TYPE = "TaskUpdated";

  public TaskUpdated {
    changed = List.copyOf(changed);
    warnings = List.copyOf(warnings);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
