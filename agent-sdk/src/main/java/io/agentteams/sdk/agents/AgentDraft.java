package io.agentteams.sdk.agents;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An agent to register or the new content of one to replace.
 *
 * @param id the id to register it under (ignored when replacing)
 * @param name its display name
 * @param description what it does
 * @param runtime how its jobs reach it; null means {@code pull}
 * @param toolGroups the tool groups it uses; null means none
 */
public record AgentDraft(
    @Nullable String id,
    String name,
    @Nullable String description,
    Agent.@Nullable Runtime runtime,
    @Nullable List<String> toolGroups) {

  /** A {@code pull} agent: a worker holds its job stream. */
  public static AgentDraft pull(String id, String name, String description) {
    return new AgentDraft(id, name, description, Agent.Runtime.pull(), null);
  }
}
