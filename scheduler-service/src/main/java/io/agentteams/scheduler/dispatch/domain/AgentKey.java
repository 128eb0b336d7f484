package io.agentteams.scheduler.dispatch.domain;

import java.util.Objects;

/**
 * The runtime of one agent for one owner: whose worker streams which jobs.
 *
 * @param ownerId the owner whose teams' jobs it runs
 * @param agentId the agent
 */
public record AgentKey(String ownerId, String agentId) {

  private static final char SEPARATOR = '\u001f';

  public AgentKey {
    Objects.requireNonNull(ownerId, "owner id");
    Objects.requireNonNull(agentId, "agent id");
  }

  /** The form the database's dispatch notifications carry. */
  public String payload() {
    return ownerId + SEPARATOR + agentId;
  }
}
