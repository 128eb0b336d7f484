package io.agentteams.scheduler.admission.application;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.scheduler.SchedulerProperties;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The periodic measurement of admission, which every replica runs: it reads the whole deployment's
 * figures from the database, so replicas report the same values and need not agree on who measures.
 */
@Configuration(proxyBeanMethods = false)
public class AdmissionLoops {

  /**
   * Queue depths, slots, waiting jobs and fairness every {@code metrics-interval}, at start too.
   */
  @Bean
  PeriodicLoop admissionMetricsLoop(
      PeriodicLoops loops, AdmissionMetrics metrics, SchedulerProperties properties) {
    return loops
        .named("admission-metrics")
        .every(properties.admission().metricsInterval())
        .firstAfter(Duration.ZERO)
        .running(metrics::refresh);
  }
}
