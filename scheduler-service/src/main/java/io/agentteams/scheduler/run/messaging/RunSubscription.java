package io.agentteams.scheduler.run.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.contracts.taskboard.PlanImported;
import io.agentteams.contracts.taskboard.PlanRefused;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.scheduler.run.application.RunProgress;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;

/**
 * Reads the scheduler's own {@code JobResultRecorded} events (a run moves on when a job it created
 * ends) and the task board's answers to the plans runs hand it ({@code PlanImported}, {@code
 * PlanRefused}). Events are keyed by team, so one listener at a time sees a team's events, in
 * order.
 */
@Configuration(proxyBeanMethods = false)
public class RunSubscription {

  /** The subscription's name; its consumer group is {@code scheduler-service.team-runs}. */
  public static final String NAME = "team-runs";

  @Bean
  EventSubscription runResults(RunProgress progress, EventCodec codec) {
    return EventSubscription.of(
            NAME,
            Topics.SCHEDULER_EVENTS,
            event -> progress.on(codec.data(event, JobResultRecorded.class)))
        .onlyTypes(JobResultRecorded.TYPE);
  }

  /** The subscription's name; its consumer group is {@code scheduler-service.team-run-plans}. */
  public static final String PLANS = "team-run-plans";

  @Bean
  EventSubscription runPlans(RunProgress progress, EventCodec codec) {
    return EventSubscription.of(
            PLANS,
            Topics.TASK_EVENTS,
            event ->
                switch (event.type()) {
                  case PlanImported.TYPE -> progress.on(codec.data(event, PlanImported.class));
                  case PlanRefused.TYPE -> progress.on(codec.data(event, PlanRefused.class));
                  default -> Mono.empty();
                })
        .onlyTypes(PlanImported.TYPE, PlanRefused.TYPE);
  }
}
