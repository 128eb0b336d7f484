package io.agentteams.archfixture.team.application;

import io.agentteams.platform.access.Acting;

/** A service deciding whom a caller acts as without asking team access. */
public class MadeUpGrant {

  public Acting actAsOwner(String ownerId) {
    return new Acting.AsOwner(ownerId);
  }
}
