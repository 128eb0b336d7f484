package io.agentteams.team.teams.runtime;

import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.teams.domain.ConversationBinding;
import io.agentteams.team.teams.domain.ConversationOutcome;
import reactor.core.publisher.Mono;

/**
 * The adapter seam for one kind of agent runtime. An adapter for a runtime that keeps conversations
 * asks it to create the binding's conversation idempotently, keyed by the conversation id (create
 * if missing, otherwise leave it unchanged) and reports which it was.
 */
public interface RuntimeConversations {

  /** The runtime kind this adapter serves. */
  RuntimeKind kind();

  /** Ensures the conversation on the runtime; see {@code ConversationProvisioner}. */
  Mono<ConversationOutcome> ensure(ConversationBinding binding);
}
