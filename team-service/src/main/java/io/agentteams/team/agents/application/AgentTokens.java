package io.agentteams.team.agents.application;

import reactor.core.publisher.Mono;

/**
 * What an agent's deletion asks of the token registry: that the agent's live tokens are revoked in
 * the deletion's transaction. The port is the catalog's own; the registry implements it, so the
 * registry knows agents and the catalog never reaches back to it.
 */
public interface AgentTokens {

  /** Revokes every live token of the agent within the caller's transaction; yields how many. */
  Mono<Integer> revokeAgentWithin(String ownerId, String agentId);
}
