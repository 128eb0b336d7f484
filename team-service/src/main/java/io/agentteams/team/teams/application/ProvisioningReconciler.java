package io.agentteams.team.teams.application;

import io.agentteams.team.teams.persistence.ProvisioningStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;

/**
 * Looks for due provisioning every interval on every instance: new teams nobody kicked, retries
 * whose back-off ended, and teams whose worker died (its lease ran out). This is how unfinished
 * provisioning is finished or failed after a restart. A periodic loop runs a round every {@code
 * reconcile-interval}, the first at start-up.
 */
public class ProvisioningReconciler {

  private final TeamProvisioning provisioning;
  private final ProvisioningStore claims;
  private final AtomicLong due = new AtomicLong();

  public ProvisioningReconciler(
      TeamProvisioning provisioning, ProvisioningStore claims, MeterRegistry meters) {
    this.provisioning = provisioning;
    this.claims = claims;
    Gauge.builder("agentteams.team.provisioning.due", due, AtomicLong::get)
        .description("Teams whose provisioning is under way or waiting to be retried")
        .register(meters);
  }

  /** One round: claim and provision what is due, then measure what is left. */
  public Mono<Integer> reconcileOnce() {
    return provisioning
        .provisionDue(null)
        .flatMap(claimed -> claims.countDue().doOnNext(due::set).thenReturn(claimed));
  }
}
