package io.agentteams.contracts.team;

/** Every member's conversation is ensured: the team is {@code ready} for work. */
public record TeamReady(String teamId, long teamRevision) implements TeamEvent {

  public static final String TYPE = "TeamReady";

  @Override
  public String eventType() {
    return TYPE;
  }
}
