package io.agentteams.scheduler.run.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.contracts.taskboard.PlanImported;
import io.agentteams.contracts.taskboard.PlanRefused;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.scheduler.run.application.RunProgress;
import java.util.List;
import java.util.Set;
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

  /**
   * The subscription's name; its consumer group is {@code scheduler-service.team-runs}. One
   * consumer reads both topics (each consumer costs a Kafka client).
   */
  public static final String NAME = "team-runs";

  @Bean
  EventSubscription runResults(RunProgress progress, EventCodec codec) {
    return new EventSubscription(
        NAME,
        List.of(Topics.SCHEDULER_EVENTS, Topics.TASK_EVENTS),
        1,
        event ->
            switch (event.type()) {
              case JobResultRecorded.TYPE ->
                  progress.on(codec.data(event, JobResultRecorded.class));
              case PlanImported.TYPE -> progress.on(codec.data(event, PlanImported.class));
              case PlanRefused.TYPE -> progress.on(codec.data(event, PlanRefused.class));
              default -> Mono.empty();
            },
        Set.of(JobResultRecorded.TYPE, PlanImported.TYPE, PlanRefused.TYPE));
  }
}
