package io.agentteams.team.jobs.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.JobStateChanged;
import io.agentteams.platform.consumer.EventHandler;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.MalformedEventException;
import io.agentteams.team.jobs.persistence.SchedulerJobs;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;

/**
 * Consumes the scheduler's events into the projection of unfinished jobs per team, through the
 * platform's idempotent consumer; other scheduler events are skipped.
 */
@Configuration(proxyBeanMethods = false)
public class SchedulerJobSubscription {

  /** The subscription's name, also its consumer group suffix and deduplication scope. */
  public static final String NAME = "scheduler-jobs";

  @Bean
  EventSubscription schedulerJobsSubscription(SchedulerJobs jobs, EventCodec codec) {
    // Only job state changes concern teams; the topic's other events are skipped without a
    // transaction (the handler ignores them too, for callers that use it directly).
    return EventSubscription.of(NAME, Topics.SCHEDULER_EVENTS, handler(jobs, codec))
        .onlyTypes(JobStateChanged.TYPE);
  }

  static EventHandler handler(SchedulerJobs jobs, EventCodec codec) {
    return event -> {
      if (!JobStateChanged.TYPE.equals(event.type())) {
        return Mono.empty();
      }
      JobStateChanged change = codec.data(event, JobStateChanged.class);
      UUID teamId;
      try {
        teamId = UUID.fromString(change.teamId());
      } catch (IllegalArgumentException e) {
        throw new MalformedEventException(
            "JobStateChanged " + event.eventId() + " names team '" + change.teamId() + "'", e);
      }
      return jobs.apply(teamId, change);
    };
  }
}
