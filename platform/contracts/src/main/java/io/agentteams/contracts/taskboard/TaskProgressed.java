package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/** The claimant reported progress (with a heartbeat); published only when the progress changed. */
public record TaskProgressed(
    String teamId, long taskId, String member, @Nullable String phase, int percent, long revision)
    implements EventPayload {

  public static final String TYPE = "TaskProgressed";

  @Override
  public String eventType() {
    return TYPE;
  }
}
