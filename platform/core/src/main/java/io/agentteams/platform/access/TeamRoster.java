package io.agentteams.platform.access;

import io.agentteams.contracts.team.TeamStatus;
import java.util.Optional;
import java.util.UUID;

/** What an access decision reads of a team: its owner, its status and who is on its roster. */
public interface TeamRoster {

  UUID teamId();

  String ownerId();

  TeamStatus status();

  /** The seat of the member with that name, if the roster has one. */
  Optional<Seat> seat(String member);

  /**
   * One member's place on the roster.
   *
   * @param member the member's name
   * @param lead whether the member leads the team
   */
  record Seat(String member, boolean lead) {}
}
