package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;

/**
 * A member claimed a ready task; it is now in progress and must heartbeat. It carries no
 * write-scope warnings: a ready task already counts as active, so claiming creates no overlap that
 * {@code TaskCreated} or {@code TaskUpdated} did not report (the claim's HTTP answer repeats them
 * for the claimant).
 */
public record TaskClaimed(
    String teamId, long taskId, String member, String claimedAt, long revision)
    implements EventPayload {

  public static final String TYPE = "TaskClaimed";

  @Override
  public String eventType() {
    return TYPE;
  }
}
