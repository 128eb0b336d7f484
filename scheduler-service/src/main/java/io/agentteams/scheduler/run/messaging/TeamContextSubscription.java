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
import java.util.List;
import java.util.Set;
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

  /**
   * The subscription's name; its consumer group is {@code scheduler-service.run-context}. One
   * consumer reads both topics: a team's context changes seldom, and each consumer costs a Kafka
   * client.
   */
  public static final String NAME = "run-context";

  @Bean
  EventSubscription runTeamContext(TeamContextStore context, EventCodec codec) {
    return new EventSubscription(
        NAME,
        List.of(Topics.TEAM_EVENTS, Topics.MAILBOX_EVENTS),
        1,
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
            case MessageQueued.TYPE -> message(context, codec.data(event, MessageQueued.class));
            default -> Mono.empty();
          };
        },
        Set.of(
            TeamCreated.TYPE,
            TeamStatePublished.TYPE,
            TeamStateUpdated.TYPE,
            TeamDeleted.TYPE,
            MessageQueued.TYPE));
  }

  /** A member's or the owner's message; the system's notices are left out. */
  private static Mono<Void> message(TeamContextStore context, MessageQueued message) {
    return "system".equals(message.senderKind())
        ? Mono.empty()
        : context.message(UUID.fromString(message.teamId()), message);
  }
}
