package io.agentteams.platform.access;

/**
 * Access granted to a team.
 *
 * @param team the team as it was read for the decision
 * @param as whom the caller acts as
 * @param <R> how the service that decided holds its teams
 */
public record Grant<R extends TeamRoster>(R team, Acting as) {

  /** The team's owner. */
  public String ownerId() {
    return team.ownerId();
  }

  /** The member the caller acts as; only for a grant to a member. */
  public Acting.AsMember member() {
    if (as instanceof Acting.AsMember member) {
      return member;
    }
    throw new IllegalStateException("access was granted to " + as + ", not to a member");
  }
}
