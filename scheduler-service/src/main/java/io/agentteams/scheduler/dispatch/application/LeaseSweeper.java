package io.agentteams.scheduler.dispatch.application;

import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.dispatch.persistence.OfferStore;
import io.agentteams.scheduler.job.application.JobTransitions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Finds lapsed leases, long-unknown outcomes and offers nobody took. An admitted job that no
 * runtime took within the offer time-out gives its slot back and waits for a worker
 * (schedule-to-start), so agents with no worker connected never starve other owners. A job whose
 * lease lapsed becomes {@code unknown}, keeps its slot and is due a reconciliation offer; a job
 * unknown for longer than the time-out is settled by the configured policy (failed with a reason
 * that says the outcome is unknown, or held). Every replica runs a sweeper: each job is handled in
 * its own transaction under its row lock, skipped when another replica holds it, so a job is never
 * handled twice and a slow one never holds up the rest for longer than one step's time-out. {@link
 * DispatchLoops} runs a sweep every {@code sweep-interval}.
 */
@Component
public class LeaseSweeper {

  private static final Logger log = LoggerFactory.getLogger(LeaseSweeper.class);
  private static final int BATCH = 100;

  private final OfferStore offers;
  private final JobTransitions transitions;
  private final SchedulerProperties.Dispatch properties;
  private final Clock clock;
  private final Counter expiries;
  private final Counter timeOuts;
  private final Counter untaken;

  public LeaseSweeper(
      OfferStore offers,
      JobTransitions transitions,
      SchedulerProperties properties,
      Clock clock,
      MeterRegistry meters) {
    this.offers = offers;
    this.transitions = transitions;
    this.properties = properties.dispatch();
    this.clock = clock;
    this.expiries =
        Counter.builder("agentteams.scheduler.lease.expiries")
            .description("Leases that lapsed without a report")
            .register(meters);
    this.timeOuts =
        Counter.builder("agentteams.scheduler.unknown.timeouts")
            .description("Jobs settled by the unknown-outcome time-out policy")
            .register(meters);
    this.untaken =
        Counter.builder("agentteams.scheduler.offer.timeouts")
            .description("Admitted jobs no runtime took in time: their slot went back")
            .register(meters);
  }

  /** One sweep. */
  public Mono<Void> sweep() {
    Duration offerTimeout = properties.offerTimeout();
    Mono<Void> untakenOffers =
        each(
            () -> offers.untakenSince(clock.instant().minus(offerTimeout), BATCH),
            (job, now) -> {
              var change = job.returnUntaken(now, offerTimeout);
              if (change != null) {
                untaken.increment();
              }
              return change;
            });
    // No worker of the job's agent is connected: it waits for one at once, rather than showing as
    // starting until the time-out (a worker that connects meanwhile queues it again).
    Mono<Void> noWorker =
        each(
            () -> offers.untakenWithoutWorker(clock.instant(), BATCH),
            (job, now) -> {
              var change = job.returnUntaken(now, Duration.ZERO);
              if (change != null) {
                untaken.increment();
              }
              return change;
            });
    untakenOffers = untakenOffers.then(noWorker);
    Mono<Void> lapsed =
        each(
            () -> offers.lapsedLeases(clock.instant(), BATCH),
            (job, now) -> {
              if (!job.leaseLapsed(now)) {
                return null;
              }
              expiries.increment();
              return job.expireLease(now);
            });
    if (properties.unknownPolicy() == SchedulerProperties.UnknownPolicy.HOLD) {
      return untakenOffers.then(lapsed);
    }
    Duration timeout = properties.unknownTimeout();
    Mono<Void> unknown =
        each(
            () -> offers.unknownSince(clock.instant().minus(timeout), BATCH),
            (job, now) -> {
              var change = job.giveUpUnknown(now, timeout);
              if (change != null) {
                timeOuts.increment();
              }
              return change;
            });
    return untakenOffers.then(lapsed).then(unknown);
  }

  /**
   * Applies the transition to each job the query finds (read when the sweep reaches it), one at a
   * time and each only if no one else holds it.
   */
  private Mono<Void> each(Supplier<Flux<UUID>> query, JobTransitions.Transition transition) {
    return Mono.defer(
        () ->
            query
                .get()
                .collectList()
                .flatMapIterable(ids -> ids)
                .concatMap(id -> step(id, transitions.applyIfFree(id, transition)))
                .then());
  }

  private Mono<Void> step(UUID id, Mono<?> work) {
    return work.timeout(properties.stepTimeout())
        .onErrorResume(
            e -> {
              log.warn("sweeping job {} failed; the next sweep retries: {}", id, e.toString());
              return Mono.empty();
            })
        .then();
  }
}
