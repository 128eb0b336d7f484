package io.agentteams.team.teams.application;

import io.agentteams.team.teams.ProvisioningProperties;
import io.agentteams.team.teams.persistence.ProvisioningStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Looks for due provisioning every interval on every instance: new teams nobody kicked, retries
 * whose back-off ended, and teams whose worker died (its lease ran out). This is how unfinished
 * provisioning is finished or failed after a restart.
 */
public class ProvisioningReconciler implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(ProvisioningReconciler.class);

  private final TeamProvisioning provisioning;
  private final ProvisioningStore claims;
  private final ProvisioningProperties properties;
  private final AtomicLong due = new AtomicLong();
  private volatile Disposable loop = () -> {};
  private volatile boolean running;

  public ProvisioningReconciler(
      TeamProvisioning provisioning,
      ProvisioningStore claims,
      ProvisioningProperties properties,
      MeterRegistry meters) {
    this.provisioning = provisioning;
    this.claims = claims;
    this.properties = properties;
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

  @Override
  public void start() {
    loop =
        Flux.interval(Duration.ZERO, properties.reconcileInterval())
            .onBackpressureDrop()
            .concatMap(
                tick ->
                    reconcileOnce()
                        .onErrorResume(
                            error -> {
                              log.warn("provisioning reconciliation failed: {}", error.toString());
                              return Mono.empty();
                            }),
                1)
            .subscribe();
    running = true;
  }

  @Override
  public void stop() {
    loop.dispose();
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
