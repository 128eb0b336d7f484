package io.agentteams.scheduler.run.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.mailbox.MessageQueued;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.contracts.team.TeamDeleted;
import io.agentteams.contracts.team.TeamStatePublished;
import io.agentteams.contracts.team.TeamStateUpdated;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.scheduler.run.persistence.TeamContextStore;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;

/**
 * Keeps the team context runs give their tasks from the events that carry it: the team's goal and
 * public state from team-service's topic, its recent messages from the mailbox's (the members' and
 * the owner's; the system's notices, a run's own among them, are left out). The scheduler never
 * asks another service for it.
 */
@Configuration(proxyBeanMethods = false)
public class TeamContextSubscription {

  /** The team events' subscription; its consumer group is {@code scheduler-service.run-team}. */
  public static final String TEAM = "run-team";

  /** The messages' subscription; its consumer group is {@code scheduler-service.run-messages}. */
  public static final String MESSAGES = "run-messages";

  @Bean
  EventSubscription runTeamContext(TeamContextStore context, EventCodec codec) {
    return EventSubscription.of(
            TEAM,
            Topics.TEAM_EVENTS,
            event -> {
              UUID teamId = UUID.fromString(event.teamId());
              return switch (event.type()) {
                case TeamCreated.TYPE ->
                    context.goal(teamId, codec.data(event, TeamCreated.class).goal());
                case TeamStatePublished.TYPE ->
                    context.state(teamId, codec.data(event, TeamStatePublished.class).entry());
                case TeamStateUpdated.TYPE ->
                    context.state(teamId, codec.data(event, TeamStateUpdated.class).entry());
                case TeamDeleted.TYPE -> context.forget(teamId);
                default -> Mono.empty();
              };
            })
        .onlyTypes(
            TeamCreated.TYPE, TeamStatePublished.TYPE, TeamStateUpdated.TYPE, TeamDeleted.TYPE);
  }

  @Bean
  EventSubscription runTeamMessages(TeamContextStore context, EventCodec codec) {
    return EventSubscription.of(
            MESSAGES,
            Topics.MAILBOX_EVENTS,
            event -> {
              MessageQueued message = codec.data(event, MessageQueued.class);
              return "system".equals(message.senderKind())
                  ? Mono.empty()
                  : context.message(UUID.fromString(message.teamId()), message);
            })
        .onlyTypes(MessageQueued.TYPE);
  }
}
