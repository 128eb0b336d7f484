package io.agentteams.scheduler.admission.application;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.scheduler.admission.AdmissionProperties;
import io.agentteams.scheduler.budget.application.LedgerMetrics;
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
      PeriodicLoops loops, AdmissionMetrics metrics, AdmissionProperties properties) {
    return loops
        .named("admission-metrics")
        .every(properties.metricsInterval())
        .firstAfter(Duration.ZERO)
        .running(metrics::refresh);
  }

  /**
   * The ledger's reservations outstanding every {@code metrics-interval}, at start too: admission
   * makes the reservations, so they are measured beside its own figures.
   */
  @Bean
  PeriodicLoop ledgerMetricsLoop(
      PeriodicLoops loops, LedgerMetrics metrics, AdmissionProperties properties) {
    return loops
        .named("ledger-metrics")
        .every(properties.metricsInterval())
        .firstAfter(Duration.ZERO)
        .running(metrics::refresh);
  }
}
