package io.agentteams.scheduler.run.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.scheduler.run.application.RunProgress;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Reads the scheduler's own {@code JobResultRecorded} events: a run moves on when a job it created
 * ends. Events are keyed by team, so one listener at a time sees a team's results, in order.
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
}
