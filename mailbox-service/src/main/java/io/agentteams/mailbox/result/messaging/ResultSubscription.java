package io.agentteams.mailbox.result.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.mailbox.result.application.ResultRecorder;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;

/** Reads {@code JobResultRecorded} from the scheduler's events topic. */
@Configuration(proxyBeanMethods = false)
public class ResultSubscription {

  /** The subscription's name; its consumer group is {@code mailbox-service.results}. */
  public static final String NAME = "results";

  @Bean
  EventSubscription resultEvents(ResultRecorder recorder, EventCodec codec) {
    return EventSubscription.of(
        NAME,
        Topics.SCHEDULER_EVENTS,
        event ->
            JobResultRecorded.TYPE.equals(event.type())
                ? recorder.on(codec.data(event, JobResultRecorded.class))
                : Mono.empty());
  }
}
