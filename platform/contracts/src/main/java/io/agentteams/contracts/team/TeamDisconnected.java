package io.agentteams.contracts.team;

/**
 * A dispatch target revoked access or a failure was ambiguous: the team is {@code disconnected}
 * until an explicit reconnect.
 */
public record TeamDisconnected(String teamId, String reason, long teamRevision)
    implements TeamEvent {

  public static final String TYPE = "TeamDisconnected";

  @Override
  public String eventType() {
    return TYPE;
  }
}
