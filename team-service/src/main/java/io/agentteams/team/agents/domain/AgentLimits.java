package io.agentteams.team.agents.domain;

import io.agentteams.platform.bounds.TextBound;

/**
 * The limits an agent must keep, from configuration.
 *
 * @param name the agent name's bound
 * @param description the description's bound
 * @param maxToolGroups the most tool groups one agent may declare
 * @param endpointMaxBytes the longest endpoint URL, in UTF-8 bytes
 * @param maxAgentsPerOwner the most agents one owner may register
 */
public record AgentLimits(
    TextBound name,
    TextBound description,
    int maxToolGroups,
    int endpointMaxBytes,
    int maxAgentsPerOwner) {

  public AgentLimits {
    if (maxToolGroups < 0 || endpointMaxBytes < 1 || maxAgentsPerOwner < 1) {
      throw new IllegalArgumentException("agent limits must be positive");
    }
  }

  /** The defaults: name 80/160, description 2,000/4,000, 16 tool groups, 2,048-byte URLs, 200. */
  public static AgentLimits defaults() {
    return new AgentLimits(
        new TextBound("agent.name", 80, 160),
        new TextBound("agent.description", 2000, 4000),
        16,
        2048,
        200);
  }
}
