package io.agentteams.team.teams.runtime;

import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.teams.domain.ConversationBinding;
import io.agentteams.team.teams.domain.ConversationOutcome;
import reactor.core.publisher.Mono;

/**
 * A2A agents keep their conversations as contexts, which the client names: the member's
 * conversation id is the A2A context id of every message the scheduler's A2A runtime sends for it,
 * so allocating the id is all provisioning takes. Team-service never calls the agent itself (the
 * scheduler's runtime does, through the outbound guard).
 */
public final class A2aConversations implements RuntimeConversations {

  @Override
  public RuntimeKind kind() {
    return RuntimeKind.A2A;
  }

  @Override
  public Mono<ConversationOutcome> ensure(ConversationBinding binding) {
    return Mono.just(ConversationOutcome.ALLOCATED);
  }
}
