package io.agentteams.platform.access;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Whom a caller acts as on a team it was granted access to. */
public sealed interface Acting {

  /** The team's owner, a person. */
  record AsOwner(String ownerId) implements Acting {}

  /**
   * One member of the team, acting as itself.
   *
   * @param name the member's name on the roster
   * @param lead whether it leads the team
   * @param jobId the job its token was minted for, if any
   */
  record AsMember(String name, boolean lead, @Nullable UUID jobId) implements Acting {}

  /** Another service of this system, acting on its own behalf. */
  record AsService(String name) implements Acting {}
}
