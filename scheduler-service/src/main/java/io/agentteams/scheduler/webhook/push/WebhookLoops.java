package io.agentteams.scheduler.webhook.push;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.scheduler.webhook.WebhookProperties;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The webhook runtime's periodic work, which every replica runs. */
@Configuration(proxyBeanMethods = false)
public class WebhookLoops {

  /** Looks for webhook jobs to push every {@code poll-interval}, besides the dispatch signal. */
  @Bean
  PeriodicLoop webhookDispatchLoop(
      PeriodicLoops loops, WebhookDispatcher dispatcher, WebhookProperties properties) {
    return loops
        .named("webhook-dispatch")
        .every(properties.pollInterval())
        .running(dispatcher::pass);
  }

  /** Forgets the push records of jobs that ended more than {@code delivery-retention} ago. */
  @Bean
  PeriodicLoop webhookDeliveryHousekeepingLoop(PeriodicLoops loops, WebhookDispatcher dispatcher) {
    return loops
        .named("webhook-delivery-housekeeping")
        .every(Duration.ofMinutes(10))
        .running(dispatcher::housekeep);
  }
}
