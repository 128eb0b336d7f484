package io.agentteams.team.teams.runtime;

import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.teams.domain.ConversationBinding;
import io.agentteams.team.teams.domain.ConversationOutcome;
import reactor.core.publisher.Mono;

/**
 * Pull agents keep no conversations for us to create: their worker receives each job with the
 * member's conversation id. Allocating the id (done when the team was created) is all it takes.
 */
public final class PullConversations implements RuntimeConversations {

  @Override
  public RuntimeKind kind() {
    return RuntimeKind.PULL;
  }

  @Override
  public Mono<ConversationOutcome> ensure(ConversationBinding binding) {
    return Mono.just(ConversationOutcome.ALLOCATED);
  }
}
