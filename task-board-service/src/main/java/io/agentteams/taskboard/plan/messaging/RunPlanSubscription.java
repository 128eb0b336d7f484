package io.agentteams.taskboard.plan.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.RunPlanSubmitted;
import io.agentteams.contracts.scheduler.RunProgressed;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.taskboard.plan.application.RunPlans;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;

/**
 * Reads team runs from the scheduler's topic: the plans they submit and the progress their plans'
 * tasks follow. Events are keyed by team, so a run's entries arrive in order after its plan.
 */
@Configuration(proxyBeanMethods = false)
public class RunPlanSubscription {

  /** The subscription's name; its consumer group is {@code task-board-service.team-runs}. */
  public static final String NAME = "team-runs";

  @Bean
  EventSubscription runPlanEvents(RunPlans runs, EventCodec codec) {
    return EventSubscription.of(
            NAME,
            Topics.SCHEDULER_EVENTS,
            event ->
                switch (event.type()) {
                  case RunPlanSubmitted.TYPE ->
                      runs.submitted(codec.data(event, RunPlanSubmitted.class), event.ownerId());
                  case RunProgressed.TYPE ->
                      runs.progressed(codec.data(event, RunProgressed.class));
                  default -> Mono.empty();
                })
        .onlyTypes(RunPlanSubmitted.TYPE, RunProgressed.TYPE);
  }
}
