package io.agentteams.team.agents.application;

import io.agentteams.team.agents.domain.Agent;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a catalog search.
 *
 * @param agents the agents on this page, in name order
 * @param nextCursor where the next page starts; null on the last page
 */
public record AgentPage(List<Agent> agents, @Nullable String nextCursor) {}
