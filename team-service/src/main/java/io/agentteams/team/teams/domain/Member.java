package io.agentteams.team.teams.domain;

import io.agentteams.team.agents.domain.AgentRuntime;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A member of a team: bound to one agent and to its own persistent conversation.
 *
 * @param name unique and immutable in the team, never reused
 * @param agentId the catalog agent it runs as
 * @param lead whether it may assign tasks to others and interrupt members
 * @param conversationId its own conversation, allocated once and kept
 * @param runtime how its agent ran when it was bound (the recorded binding)
 * @param status where its conversation is in the current provisioning round
 * @param outcome what ensuring its conversation found in the current round, once ensured
 */
public record Member(
    MemberName name,
    String agentId,
    boolean lead,
    String conversationId,
    AgentRuntime runtime,
    MemberStatus status,
    @Nullable ConversationOutcome outcome) {

  /** The recorded binding a provisioning step ensures. */
  public ConversationBinding binding(UUID teamId) {
    return new ConversationBinding(
        teamId, name, agentId, runtime.kind(), runtime.endpoint(), conversationId);
  }

  Member with(MemberStatus newStatus, @Nullable ConversationOutcome newOutcome) {
    return new Member(name, agentId, lead, conversationId, runtime, newStatus, newOutcome);
  }
}
