package io.agentteams.team.teams.application;

import io.agentteams.team.teams.domain.ConversationBinding;
import reactor.core.publisher.Mono;

/**
 * Points between the steps of provisioning one member. Production uses {@link #NONE}; fault
 * injection tests use it to stop a worker exactly there, as if its process died: an error abandons
 * the worker's run without touching the database, and the claim's lease runs out for another.
 */
@FunctionalInterface
public interface ProvisioningCheckpoint {

  /** Where in a member's provisioning the worker is. */
  enum Step {
    /** The member's record is pending and the claim renewed; the runtime was not asked yet. */
    CLAIMED,
    /** The runtime ensured the conversation; nothing is recorded yet. */
    ENSURED,
    /** The member is recorded as ensured and its event written, in one committed transaction. */
    RECORDED
  }

  /** Does nothing. */
  ProvisioningCheckpoint NONE = (step, binding) -> Mono.empty();

  /** Called when the worker reaches {@code step} for the binding. */
  Mono<Void> reached(Step step, ConversationBinding binding);
}
