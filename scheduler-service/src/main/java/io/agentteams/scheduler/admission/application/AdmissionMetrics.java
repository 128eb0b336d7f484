package io.agentteams.scheduler.admission.application;

import io.agentteams.scheduler.admission.AdmissionProperties;
import io.agentteams.scheduler.admission.domain.Fairness;
import io.agentteams.scheduler.admission.domain.OwnerWeights;
import io.agentteams.scheduler.admission.persistence.AdmissionStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Measures what admission looks like from the database, for the whole deployment: queued jobs, how
 * many owners have a backlog and the deepest owner's backlog (no owner id is a label: the series
 * stay a fixed few whatever the number of owners), slots held and available, jobs waiting for an
 * answer or for a runtime to take them, the oldest queued job's wait, and Jain's fairness index
 * over the recent admissions of the owners that have a backlog (each owner's count divided by its
 * weight). The {@code admission-metrics} loop of {@link AdmissionLoops} refreshes them.
 */
@Component
public class AdmissionMetrics {

  private final AdmissionStore store;
  private final AdmissionProperties properties;
  private final OwnerWeights weights;
  private final Clock clock;
  private final AtomicReference<Backlog> backlog = new AtomicReference<>(new Backlog(0, 0, 0));
  private final AtomicInteger active = new AtomicInteger();
  private final AtomicReference<Double> fairness = new AtomicReference<>(1.0);
  private final AtomicReference<AdmissionStore.Waiting> waiting =
      new AtomicReference<>(new AdmissionStore.Waiting(0, 0, 0, 0, 0));

  public AdmissionMetrics(
      AdmissionStore store, AdmissionProperties properties, Clock clock, MeterRegistry meters) {
    this.store = store;
    this.properties = properties;
    this.weights = properties.weights();
    this.clock = clock;
    Gauge.builder("agentteams.scheduler.queue.depth", backlog, b -> b.get().queued())
        .description("Queued jobs across the deployment")
        .register(meters);
    Gauge.builder("agentteams.scheduler.queue.owners", backlog, b -> b.get().owners())
        .description("Owners with at least one queued job")
        .register(meters);
    Gauge.builder("agentteams.scheduler.queue.depth.max", backlog, b -> b.get().deepest())
        .description("Queued jobs of the owner with the most")
        .register(meters);
    Gauge.builder("agentteams.scheduler.slots.active", active, AtomicInteger::get)
        .description("Admission slots held across the deployment")
        .register(meters);
    Gauge.builder("agentteams.scheduler.slots.capacity", this.properties, p -> p.slots())
        .description("Admission slots configured")
        .register(meters);
    Gauge.builder("agentteams.scheduler.jobs.waiting.worker", waiting, w -> w.get().waitingWorker())
        .description("Jobs no worker took in time, waiting for a worker of their agent")
        .register(meters);
    Gauge.builder("agentteams.scheduler.fairness", fairness, AtomicReference::get)
        .description("Jain's index over recent admissions of owners with a backlog, by weight")
        .register(meters);
    Gauge.builder("agentteams.scheduler.jobs.waiting.input", waiting, w -> w.get().waitingInput())
        .description("Jobs waiting for an answer to their question (they hold no slot)")
        .register(meters);
    Gauge.builder("agentteams.scheduler.offers.waiting", waiting, w -> w.get().unoffered())
        .description("Admitted jobs no runtime has taken yet: no worker connected, or all busy")
        .register(meters);
    Gauge.builder(
            "agentteams.scheduler.offers.oldest.waiting",
            waiting,
            w -> w.get().oldestUnofferedSeconds())
        .description("How long the oldest admitted job has waited for a runtime to take it")
        .baseUnit("seconds")
        .register(meters);
    Gauge.builder("agentteams.scheduler.queue.oldest", waiting, w -> w.get().oldestQueuedSeconds())
        .description("How long the oldest queued job has waited")
        .baseUnit("seconds")
        .register(meters);
  }

  /** Measures once. */
  public Mono<Void> refresh() {
    Mono<Void> depths =
        store
            .queueDepths()
            .collectList()
            .doOnNext(
                rows ->
                    backlog.set(
                        new Backlog(
                            rows.stream().mapToLong(AdmissionStore.OwnerDepth::queued).sum(),
                            rows.size(),
                            rows.stream()
                                .mapToLong(AdmissionStore.OwnerDepth::queued)
                                .max()
                                .orElse(0))))
            .then();
    Mono<Void> slots = store.heldSlots().doOnNext(active::set).then();
    Mono<Void> unanswered = store.waiting().doOnNext(waiting::set).then();
    Mono<Void> fair =
        store
            .recentAdmissionsOfBackloggedOwners(clock.instant().minus(properties.fairnessWindow()))
            .map(row -> (double) row.admitted() / weights.of(row.ownerId()))
            .collectList()
            .doOnNext(shares -> fairness.set(Fairness.jain(shares)))
            .then();
    return depths.then(slots).then(unanswered).then(fair);
  }

  /** Queued jobs in all, owners with any, and the most one owner has. */
  private record Backlog(long queued, int owners, long deepest) {}
}
