package io.agentteams.mailbox.message.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.mailbox.MessageQueued;
import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.message.application.Deliveries;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The delivery consumer reads this service's own events topic. A team's events share a partition
 * and the platform applies them in order, once each, so every recipient's copies are delivered in
 * the order the outbox recorded the sends.
 */
@Configuration(proxyBeanMethods = false)
public class DeliverySubscription {

  /** The subscription's name; its consumer group is {@code mailbox-service.delivery}. */
  public static final String NAME = "delivery";

  @Bean
  EventSubscription deliveryEvents(
      Deliveries deliveries, EventCodec codec, MailboxProperties properties) {
    // The topic also carries MessageDelivered and MessageRead, which this consumer writes itself
    // and need nothing: they are skipped without a transaction.
    return new EventSubscription(
            NAME,
            List.of(Topics.MAILBOX_EVENTS),
            properties.deliveryConcurrency(),
            event -> deliveries.on(codec.data(event, MessageQueued.class)))
        .onlyTypes(MessageQueued.TYPE);
  }
}
