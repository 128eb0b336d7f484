package io.agentteams.platform.roster;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.access.TeamRoster;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** A team's roster as this service last learned it from team events. */
public record Roster(
    UUID teamId, String ownerId, TeamStatus status, long revision, List<Member> members)
    implements TeamRoster {

  public Roster {
    members = List.copyOf(members);
  }

  /** One member of the roster. */
  public record Member(String name, String agentId, boolean lead, String conversationId) {}

  /** The member with that name, if the roster has one. */
  public Optional<Member> member(String name) {
    return members.stream().filter(m -> m.name().equals(name)).findFirst();
  }

  /** The lead, if the team has one. */
  public Optional<Member> lead() {
    return members.stream().filter(Member::lead).findFirst();
  }

  @Override
  public Optional<Seat> seat(String member) {
    return member(member).map(m -> new Seat(m.name(), m.lead()));
  }
}
