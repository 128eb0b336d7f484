package io.agentteams.contracts.team;

/**
 * Provisioning gave up on a member: the team is {@code failed} and never becomes ready.
 *
 * @param teamId the team
 * @param member the member whose conversation could not be ensured
 * @param reason why, for people
 * @param teamRevision the team's revision after this change
 */
public record TeamFailed(String teamId, String member, String reason, long teamRevision)
    implements TeamEvent {

  public static final String TYPE = "TeamFailed";

  @Override
  public String eventType() {
    return TYPE;
  }
}
