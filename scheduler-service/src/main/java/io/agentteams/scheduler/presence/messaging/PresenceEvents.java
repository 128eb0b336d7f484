package io.agentteams.scheduler.presence.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.WorkerPresenceChanged;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.presence.persistence.PresenceStore;
import java.time.Instant;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Announces that an agent's worker came or went ({@code WorkerPresenceChanged}) to every team of
 * the owner with a member bound to the agent, through the outbox inside the transaction of the
 * change, keyed by team id. The sequence is the change's time: presence has no revision of its own.
 */
@Component
public class PresenceEvents {

  private final PresenceStore store;
  private final Outbox outbox;

  public PresenceEvents(PresenceStore store, Outbox outbox) {
    this.store = store;
    this.outbox = outbox;
  }

  /** The agent's presence changed at {@code now}: one event per team it serves. */
  public Mono<Void> changed(AgentKey agent, Instant now) {
    return store
        .streams(agent, now)
        .flatMap(
            streams ->
                store
                    .bindings(agent)
                    .map(
                        binding ->
                            new Outbox.Pending(
                                binding.teamId().toString(),
                                agent.ownerId(),
                                now.toEpochMilli(),
                                new WorkerPresenceChanged(
                                    binding.teamId().toString(),
                                    agent.agentId(),
                                    binding.members(),
                                    streams > 0,
                                    streams)))
                    .collectList())
        .flatMap(events -> outbox.appendAll(Topics.SCHEDULER_EVENTS, events))
        .then();
  }
}
