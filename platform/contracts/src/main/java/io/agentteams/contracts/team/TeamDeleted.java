package io.agentteams.contracts.team;

/**
 * The team was deleted: this system's records of it are gone (the agents' own conversations are not
 * touched).
 */
public record TeamDeleted(String teamId, long teamRevision) implements TeamEvent {

  public static final String TYPE = "TeamDeleted";

  @Override
  public String eventType() {
    return TYPE;
  }
}
