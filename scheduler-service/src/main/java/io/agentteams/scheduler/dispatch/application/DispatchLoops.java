package io.agentteams.scheduler.dispatch.application;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.scheduler.SchedulerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The periodic work of dispatch, which every replica runs. */
@Configuration(proxyBeanMethods = false)
public class DispatchLoops {

  /** Finds lapsed leases and long-unknown outcomes every {@code sweep-interval}. */
  @Bean
  PeriodicLoop leaseSweepLoop(
      PeriodicLoops loops, LeaseSweeper sweeper, SchedulerProperties properties) {
    return loops
        .named("lease-sweep")
        .every(properties.dispatch().sweepInterval())
        .running(sweeper::sweep);
  }

  /**
   * Looks every {@code poll-interval}, for all pull streams this replica holds at once, whether
   * their agents have work the database's signals did not announce.
   */
  @Bean
  PeriodicLoop pullStreamPollLoop(
      PeriodicLoops loops, PullStreams streams, SchedulerProperties properties) {
    return loops
        .named("pull-stream-poll")
        .every(properties.dispatch().pollInterval())
        .running(streams::pollOpenStreams);
  }
}
