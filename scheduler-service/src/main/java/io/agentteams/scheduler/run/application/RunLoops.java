package io.agentteams.scheduler.run.application;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.scheduler.admission.AdmissionProperties;
import io.agentteams.scheduler.run.persistence.RunMetrics;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The periodic measurement of team runs, which every replica runs: it reads the whole deployment's
 * figures from the database, so replicas report the same values.
 */
@Configuration(proxyBeanMethods = false)
public class RunLoops {

  /** Unfinished runs and the oldest plan awaiting approval every {@code metrics-interval}. */
  @Bean
  PeriodicLoop runMetricsLoop(
      PeriodicLoops loops, RunMetrics metrics, AdmissionProperties admission) {
    return loops
        .named("run-metrics")
        .every(admission.metricsInterval())
        .firstAfter(Duration.ZERO)
        .running(metrics::refresh);
  }
}
