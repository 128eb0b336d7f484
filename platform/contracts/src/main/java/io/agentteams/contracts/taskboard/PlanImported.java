package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/**
 * A plan's tasks were imported atomically (each also has its {@link TaskCreated}).
 *
 * @param awaitingApproval whether the tasks wait for the owner's approval before they can be
 *     claimed
 * @param renamed ids that normalisation changed
 * @param generated keys generated for tasks that came without an id
 */
public record PlanImported(
    String teamId,
    String planId,
    String importedBy,
    boolean awaitingApproval,
    List<PlanTask> tasks,
    List<PlanRename> renamed,
    List<String> generated,
    List<ScopeOverlap> warnings,
    long planRevision)
    implements EventPayload {

  public static final String TYPE = "PlanImported";

  public PlanImported {
    tasks = List.copyOf(tasks);
    renamed = List.copyOf(renamed);
    generated = List.copyOf(generated);
    warnings = List.copyOf(warnings);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
