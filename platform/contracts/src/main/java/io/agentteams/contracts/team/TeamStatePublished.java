package io.agentteams.contracts.team;

/**
 * A member published a new public state entry.
 *
 * @param teamId the team
 * @param entry the entry as published
 * @param stateRevision the team-state revision after this change
 * @param teamRevision the team's revision after this change
 */
public record TeamStatePublished(
    String teamId, StateEntry entry, long stateRevision, long teamRevision) implements TeamEvent {

  public static final String TYPE = "TeamStatePublished";

  @Override
  public String eventType() {
    return TYPE;
  }
}
