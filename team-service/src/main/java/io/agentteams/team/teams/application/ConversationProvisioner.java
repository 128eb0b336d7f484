package io.agentteams.team.teams.application;

import io.agentteams.team.teams.domain.ConversationBinding;
import io.agentteams.team.teams.domain.ConversationOutcome;
import reactor.core.publisher.Mono;

/**
 * The runtime-neutral port through which a member's conversation is ensured. Implementations must
 * be idempotent, keyed by the binding's conversation id: asked again (after a crash, by another
 * replica, on reconnect) they create nothing twice and leave an existing conversation unchanged.
 */
@FunctionalInterface
public interface ConversationProvisioner {

  /**
   * Ensures the conversation exists for the binding.
   *
   * @return what it found and did; fails with {@link ConversationRejected} when the runtime refuses
   *     for good, and with any other error when a retry may help
   */
  Mono<ConversationOutcome> ensure(ConversationBinding binding);
}
