package io.agentteams.team.teams.domain;

import io.agentteams.team.agents.domain.RuntimeKind;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a member is bound to, recorded when the team is created: the agent, how it ran then, and the
 * member's own conversation. A reconnect ensures the conversation with this binding, not with
 * whatever the catalog says today.
 *
 * @param teamId the team
 * @param member the member
 * @param agentId the catalog agent
 * @param runtimeKind how the agent ran when the member was bound
 * @param endpoint where it ran, for webhook and A2A agents
 * @param conversationId the member's conversation; runtimes key their conversations by it
 */
public record ConversationBinding(
    UUID teamId,
    MemberName member,
    String agentId,
    RuntimeKind runtimeKind,
    @Nullable String endpoint,
    String conversationId) {}
