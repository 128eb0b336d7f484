package io.agentteams.archfixture.team.application;

import io.agentteams.platform.identity.Caller;
import java.util.UUID;

/** A service deciding team access itself, as the six copies once did. */
public class OwnAccessCheck {

  public boolean mayAct(Caller caller, UUID teamId) {
    return caller instanceof Caller.Member member && member.teamId().equals(teamId);
  }
}
