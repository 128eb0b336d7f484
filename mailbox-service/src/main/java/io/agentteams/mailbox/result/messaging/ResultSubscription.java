package io.agentteams.mailbox.result.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.mailbox.result.application.ResultRecorder;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Reads {@code JobResultRecorded} from the scheduler's events topic. */
@Configuration(proxyBeanMethods = false)
public class ResultSubscription {

  /** The subscription's name; its consumer group is {@code mailbox-service.results}. */
  public static final String NAME = "results";

  @Bean
  EventSubscription resultEvents(ResultRecorder recorder, EventCodec codec) {
    // The scheduler's topic carries every job event; only recorded results concern the mailbox,
    // and the others are skipped without a transaction.
    return EventSubscription.of(
            NAME,
            Topics.SCHEDULER_EVENTS,
            event -> recorder.on(codec.data(event, JobResultRecorded.class)))
        .onlyTypes(JobResultRecorded.TYPE);
  }
}
