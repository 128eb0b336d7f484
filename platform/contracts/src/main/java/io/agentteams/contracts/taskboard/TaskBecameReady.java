package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/**
 * A task became ready as a consequence of another change in the same transaction.
 *
 * @param cause what happened: {@code completed}, {@code dependencies_changed}, {@code
 *     plan_approved}, ... (the type of the change, in snake case)
 * @param causeTaskId the task whose change caused it, if a task did
 */
public record TaskBecameReady(
    String teamId, long taskId, long revision, String cause, @Nullable Long causeTaskId)
    implements EventPayload {

  public static final String TYPE = "TaskBecameReady";

  @Override
  public String eventType() {
    return TYPE;
  }
}
