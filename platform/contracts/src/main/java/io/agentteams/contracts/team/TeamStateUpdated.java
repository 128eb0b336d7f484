package io.agentteams.contracts.team;

/**
 * A member updated (or archived) a public state entry.
 *
 * @param teamId the team
 * @param entry the entry after the update
 * @param stateRevision the team-state revision after this change
 * @param teamRevision the team's revision after this change
 */
public record TeamStateUpdated(
    String teamId, StateEntry entry, long stateRevision, long teamRevision) implements TeamEvent {

  public static final String TYPE = "TeamStateUpdated";

  @Override
  public String eventType() {
    return TYPE;
  }
}
