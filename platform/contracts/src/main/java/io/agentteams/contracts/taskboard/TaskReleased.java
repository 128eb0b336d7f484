package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;

/**
 * A task's owner gave it up (or the lead took it away); it has no owner again.
 *
 * @param previousOwner who owned it
 * @param releasedBy who released it
 * @param status its status afterwards, usually {@code ready}
 */
public record TaskReleased(
    String teamId,
    long taskId,
    String previousOwner,
    String releasedBy,
    String status,
    long revision)
    implements EventPayload {

  public static final String TYPE = "TaskReleased";

  @Override
  public String eventType() {
    return TYPE;
  }
}
