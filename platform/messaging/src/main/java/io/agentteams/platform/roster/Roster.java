package io.agentteams.platform.roster;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** A team's roster as this service last learned it from team events. */
public record Roster(
    UUID teamId, String ownerId, String status, long revision, List<Member> members) {

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

  /** Whether the team belongs to the owner. */
  public boolean ownedBy(String owner) {
    return ownerId.equals(owner);
  }
}
