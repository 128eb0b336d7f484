package io.agentteams.team.teams.domain;

import io.agentteams.platform.bounds.TextBound;

/**
 * The limits a team must keep, from configuration.
 *
 * @param name the team name's bound
 * @param goal the goal's bound
 * @param minMembers the fewest members a team may have
 * @param maxMembers the most members a team may have
 * @param maxTeamsPerOwner the most teams (not deleted) one owner may have
 */
public record TeamLimits(
    TextBound name, TextBound goal, int minMembers, int maxMembers, int maxTeamsPerOwner) {

  public TeamLimits {
    if (minMembers < 1 || maxMembers < minMembers) {
      throw new IllegalArgumentException("member limits must satisfy 1 <= min <= max");
    }
    if (maxTeamsPerOwner < 1) {
      throw new IllegalArgumentException("an owner must be allowed at least one team");
    }
  }

  /** The defaults of DESIGN.md: name 80/160, goal 2,000/4,000, 2-8 members, 20 teams. */
  public static TeamLimits defaults() {
    return new TeamLimits(
        new TextBound("team.name", 80, 160), new TextBound("team.goal", 2000, 4000), 2, 8, 20);
  }
}
