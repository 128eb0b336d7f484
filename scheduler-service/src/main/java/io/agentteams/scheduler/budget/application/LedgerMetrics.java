package io.agentteams.scheduler.budget.application;

import io.agentteams.scheduler.budget.persistence.SpendStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The reservations outstanding across the deployment, for operators: jobs holding a reservation and
 * what they hold. Read from the database, so every replica reports the same figures; the {@code
 * ledger-metrics} loop refreshes them, at admission's measuring interval ({@code AdmissionLoops},
 * since admission makes the reservations). A hold that outlives its job would show here as a
 * reservation no running job explains.
 */
@Component
public class LedgerMetrics {

  private final SpendStore store;
  private final AtomicLong jobs = new AtomicLong();
  private final AtomicLong tokens = new AtomicLong();
  private final AtomicLong cost = new AtomicLong();

  LedgerMetrics(SpendStore store, MeterRegistry meters) {
    this.store = store;
    Gauge.builder("agentteams.scheduler.budget.reserved.jobs", jobs, AtomicLong::get)
        .description("Jobs holding a budget reservation (admitted and not yet settled)")
        .register(meters);
    Gauge.builder("agentteams.scheduler.budget.reserved.tokens", tokens, AtomicLong::get)
        .description("Tokens held by reservations outstanding")
        .register(meters);
    Gauge.builder("agentteams.scheduler.budget.reserved.cost", cost, AtomicLong::get)
        .description("Cost (micro-units) held by reservations outstanding")
        .register(meters);
  }

  /** Measures once. */
  public Mono<Void> refresh() {
    return store
        .outstanding()
        .doOnNext(
            figures -> {
              jobs.set(figures[0]);
              tokens.set(figures[1]);
              cost.set(figures[2]);
            })
        .then();
  }
}
