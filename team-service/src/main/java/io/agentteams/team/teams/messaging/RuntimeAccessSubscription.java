package io.agentteams.team.teams.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.RuntimeRefusedAccess;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.MalformedEventException;
import io.agentteams.team.teams.application.TeamCommands;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Disconnects a team when the scheduler reports that one of its push runtimes refused access
 * ({@code RuntimeRefusedAccess}), through the platform's idempotent consumer.
 */
@Configuration(proxyBeanMethods = false)
public class RuntimeAccessSubscription {

  /** The subscription's name, also its consumer group suffix and deduplication scope. */
  public static final String NAME = "runtime-access";

  @Bean
  EventSubscription runtimeAccessEvents(TeamCommands teams, EventCodec codec) {
    return EventSubscription.of(
            NAME,
            Topics.SCHEDULER_EVENTS,
            event -> {
              RuntimeRefusedAccess refused = codec.data(event, RuntimeRefusedAccess.class);
              UUID teamId;
              try {
                teamId = UUID.fromString(refused.teamId());
              } catch (IllegalArgumentException e) {
                throw new MalformedEventException(
                    "RuntimeRefusedAccess " + event.eventId() + " names team " + refused.teamId(),
                    e);
              }
              return teams.runtimeRefusedAccess(teamId, refused.reason());
            })
        .onlyTypes(RuntimeRefusedAccess.TYPE);
  }
}
