package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/**
 * A claim's heartbeats stopped for longer than the team's claim time-out; the task was recovered
 * and its former claimant no longer owns it.
 *
 * @param member the claimant that lost the task
 * @param lastHeartbeatAt ISO-8601 instant of its last heartbeat (or of the claim)
 * @param claimTimeoutSeconds the team's claim time-out at recovery
 * @param status the task's status afterwards: {@code ready}, or {@code blocked} if a dependency
 *     disappeared meanwhile
 * @param nowBlocked dependents that became blocked with it
 */
public record TaskClaimExpired(
    String teamId,
    long taskId,
    String member,
    String lastHeartbeatAt,
    long claimTimeoutSeconds,
    String status,
    long revision,
    List<Long> nowBlocked)
    implements EventPayload {

  public static final String TYPE = "TaskClaimExpired";

  public TaskClaimExpired {
    nowBlocked = List.copyOf(nowBlocked);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
