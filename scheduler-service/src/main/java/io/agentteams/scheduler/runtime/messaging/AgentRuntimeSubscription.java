package io.agentteams.scheduler.runtime.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.agent.AgentRuntimeChanged;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keeps the scheduler's record of how agents run (and their webhook secrets, opened from their
 * seal) in step with team-service's catalog, through the platform's idempotent consumer.
 */
@Configuration(proxyBeanMethods = false)
public class AgentRuntimeSubscription {

  /** The subscription's name, also its consumer group suffix and deduplication scope. */
  public static final String NAME = "agent-runtimes";

  @Bean
  EventSubscription agentRuntimesSubscription(SealedRuntimeChanges changes, EventCodec codec) {
    return EventSubscription.of(
            NAME,
            Topics.AGENT_RUNTIMES,
            event -> changes.apply(codec.data(event, AgentRuntimeChanged.class)))
        .onlyTypes(AgentRuntimeChanged.TYPE);
  }
}
