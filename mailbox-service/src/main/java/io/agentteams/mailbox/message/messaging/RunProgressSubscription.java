package io.agentteams.mailbox.message.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.RunProgressed;
import io.agentteams.mailbox.message.application.RunNotices;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Reads team runs' {@code RunProgressed} from the scheduler's topic into system messages. */
@Configuration(proxyBeanMethods = false)
public class RunProgressSubscription {

  /** The subscription's name; its consumer group is {@code mailbox-service.run-notices}. */
  public static final String NAME = "run-notices";

  @Bean
  EventSubscription runProgressEvents(RunNotices notices, EventCodec codec) {
    return EventSubscription.of(
            NAME,
            Topics.SCHEDULER_EVENTS,
            event -> notices.on(codec.data(event, RunProgressed.class)))
        .onlyTypes(RunProgressed.TYPE);
  }
}
