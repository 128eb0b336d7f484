package io.agentteams.scheduler.a2a.runtime;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.scheduler.a2a.A2aProperties;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The A2A runtime's periodic work, which every replica runs. */
@Configuration(proxyBeanMethods = false)
public class A2aLoops {

  /** Looks for A2A jobs to send every {@code poll-interval}, besides the dispatch signal. */
  @Bean
  PeriodicLoop a2aDispatchLoop(
      PeriodicLoops loops, A2aDispatcher dispatcher, A2aProperties properties) {
    return loops.named("a2a-dispatch").every(properties.pollInterval()).running(dispatcher::pass);
  }

  /** Carries cancels over to the agents every {@code poll-interval}. */
  @Bean
  PeriodicLoop a2aCancelLoop(
      PeriodicLoops loops, A2aDispatcher dispatcher, A2aProperties properties) {
    return loops
        .named("a2a-cancel")
        .every(properties.pollInterval())
        .running(dispatcher::cancelPass);
  }

  /** Forgets the task records of jobs that ended more than {@code record-retention} ago. */
  @Bean
  PeriodicLoop a2aRecordHousekeepingLoop(PeriodicLoops loops, A2aDispatcher dispatcher) {
    return loops
        .named("a2a-record-housekeeping")
        .every(Duration.ofMinutes(10))
        .running(dispatcher::housekeep);
  }
}
