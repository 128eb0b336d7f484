package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/**
 * A task went back to waiting for unfinished dependencies as a consequence of another change (a
 * dependency was added, a blocking one removed, a plan approved).
 */
public record TaskBecamePending(
    String teamId, long taskId, long revision, String cause, @Nullable Long causeTaskId)
    implements EventPayload {

  public static final String TYPE = "TaskBecamePending";

  @Override
  public String eventType() {
    return TYPE;
  }
}
