package io.agentteams.team.teams.runtime;

import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.teams.domain.ConversationBinding;
import io.agentteams.team.teams.domain.ConversationOutcome;
import reactor.core.publisher.Mono;

/**
 * Webhook agents keep no conversations for us to create: every push carries the member's
 * conversation id, and the agent keys its own memory by it. Allocating the id is all it takes.
 */
public final class WebhookConversations implements RuntimeConversations {

  @Override
  public RuntimeKind kind() {
    return RuntimeKind.WEBHOOK;
  }

  @Override
  public Mono<ConversationOutcome> ensure(ConversationBinding binding) {
    return Mono.just(ConversationOutcome.ALLOCATED);
  }
}
