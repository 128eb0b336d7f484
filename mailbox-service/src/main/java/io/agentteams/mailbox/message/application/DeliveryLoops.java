package io.agentteams.mailbox.message.application;

import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The periodic work of delivery, which every replica runs. */
@Configuration(proxyBeanMethods = false)
public class DeliveryLoops {

  /** Delivers copies left queued for longer than {@code redelivery-after}. */
  @Bean
  PeriodicLoop deliverySweepLoop(
      PeriodicLoops loops, DeliverySweeper sweeper, MailboxProperties properties) {
    return loops
        .named("delivery-sweep")
        .every(properties.sweepInterval())
        .running(() -> sweeper.sweep(properties.redeliveryAfter()));
  }
}
