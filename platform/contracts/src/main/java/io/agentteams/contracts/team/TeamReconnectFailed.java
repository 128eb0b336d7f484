package io.agentteams.contracts.team;

/**
 * A reconnect gave up on a member: the team stays {@code disconnected} and may be reconnected
 * again.
 */
public record TeamReconnectFailed(String teamId, String member, String reason, long teamRevision)
    implements TeamEvent {

  public static final String TYPE = "TeamReconnectFailed";

  @Override
  public String eventType() {
    return TYPE;
  }
}
