package io.agentteams.sdk.agents;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A page of agents in name order.
 *
 * @param items the agents
 * @param nextCursor pass it to get the next page; null on the last one
 */
public record AgentPage(List<Agent> items, @Nullable String nextCursor) {}
