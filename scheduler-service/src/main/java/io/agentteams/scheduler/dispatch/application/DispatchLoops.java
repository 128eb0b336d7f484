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
}
