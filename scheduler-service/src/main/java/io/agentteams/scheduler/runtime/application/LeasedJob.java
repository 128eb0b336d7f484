package io.agentteams.scheduler.runtime.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.dispatch.application.LeasedDispatch;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.job.application.JobTransitions;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.runtime.domain.RetryPolicy;
import io.agentteams.scheduler.runtime.domain.RuntimeProfile;
import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A job a push runtime claimed, with the lifecycle it runs under: renewing the lease, reporting as
 * a worker would, retrying with back-off, failing by a named reason, leaving the outcome unknown
 * for reconciliation, and disconnecting the team when the agent refuses us. Every operation is
 * fenced by the offer's lease token, so once the job moved on (a report, a cancel, a newer offer)
 * nothing of it applies any more.
 */
public final class LeasedJob {

  private static final Logger log = LoggerFactory.getLogger(LeasedJob.class);

  /** What every runtime's jobs share: the dispatch, the job's transitions and its events. */
  record Lifecycle(
      LeasedDispatch dispatch,
      JobTransitions transitions,
      JobEvents events,
      TransactionalOperator transactions,
      MeterRegistry meters) {}

  private final Offer offer;
  private final Lifecycle lifecycle;
  private final RuntimeProfile profile;
  private final RuntimeSettings settings;
  private final RetryPolicy retries;

  LeasedJob(Offer offer, Lifecycle lifecycle, RuntimeProfile profile, RuntimeSettings settings) {
    this.offer = offer;
    this.lifecycle = lifecycle;
    this.profile = profile;
    this.settings = settings;
    this.retries = settings.retryPolicy();
  }

  /** The offer the job was claimed with. */
  public Offer offer() {
    return offer;
  }

  /** The job's id. */
  public UUID id() {
    return offer.job().id();
  }

  /** The lease token everything is reported under. */
  public String token() {
    return offer.lease().token();
  }

  /**
   * Renews the lease and writes {@code record} (what is about to be sent) in one committed
   * transaction, before anything leaves: a replica that dies later leaves a lease that lapses into
   * a reconciliation that knows what was sent. Empty when the job moved on: nothing more to send.
   */
  public <T> Mono<T> begin(Mono<T> record) {
    return lifecycle
        .transactions()
        .transactional(renewal().then(record))
        .onErrorResume(
            e -> {
              log.debug("job {} is no longer held under this lease: {}", id(), e.toString());
              return Mono.empty();
            });
  }

  /** Renews the lease; false when the job moved on. */
  public Mono<Boolean> renew() {
    return renewal().thenReturn(true).onErrorResume(e -> Mono.just(false));
  }

  private Mono<Void> renewal() {
    return lifecycle
        .transitions()
        .apply(
            id(),
            (job, now) -> {
              job.extendLease(token(), now);
              return null;
            })
        .then();
  }

  /** Applies a report; false when the job moved on (a cancel, a newer lease) and it did not. */
  public Mono<Boolean> report(WorkerReport report) {
    Caller.Worker runtime =
        new Caller.Worker(offer.spec().ownerId(), offer.spec().target().agentId());
    return lifecycle
        .dispatch()
        .report(runtime, id(), report)
        .thenReturn(true)
        .onErrorResume(
            e -> {
              // A stale lease or a finished job: someone settled it first; that answer stands.
              log.debug("job {}: report not applied: {}", id(), e.toString());
              return Mono.just(false);
            });
  }

  /** Fails the job with {@code error}, counted under {@code reason}. */
  public Mono<Void> fail(String reason, String error) {
    failures(reason).increment();
    return report(new WorkerReport.Failed(token(), error, Usage.NONE, null)).then();
  }

  /**
   * Another attempt after {@code attempt} (counted from 1), after the policy's back-off (or the
   * agent's {@code Retry-After}); once the attempts are used up the job fails with {@code
   * exhausted}.
   */
  public Mono<Void> retry(
      int attempt,
      @Nullable Duration retryAfter,
      Supplier<Mono<Void>> next,
      Supplier<String> exhausted) {
    if (!retries.mayRetryAfter(attempt)) {
      return fail("retries_exhausted", exhausted.get());
    }
    return Mono.delay(
            retries.delayAfter(attempt, retryAfter, ThreadLocalRandom.current()::nextDouble))
        .then(Mono.defer(next));
  }

  /**
   * The request left but no answer came back: the job becomes {@code unknown}, keeping its slot,
   * and after the reconcile delay is offered again as a reconciliation.
   */
  public Mono<Void> unknown(@Nullable String reason) {
    failures("unknown").increment();
    log.info("job {}: {} outcome unknown ({}); reconciling later", id(), profile.kind(), reason);
    return lifecycle
        .transitions()
        .apply(
            id(),
            (job, now) -> job.pushOutcomeUnknown(token(), now, now.plus(settings.reconcileDelay())))
        .onErrorResume(e -> Mono.empty())
        .then();
  }

  /**
   * The agent refused our credentials (or asks for authentication): its team is disconnected with
   * the reason (through {@code RuntimeRefusedAccess}), and the job is kept, unknown and holding its
   * slot, without being marked done; it is reconciled once the owner has reconnected the team.
   *
   * @param metric the failure reason it is counted under
   */
  public Mono<Void> refusedAccess(String metric, String reason) {
    failures(metric).increment();
    return lifecycle
        .transactions()
        .transactional(
            lifecycle
                .transitions()
                .apply(
                    id(),
                    (job, now) ->
                        job.pushOutcomeUnknown(token(), now, now.plus(settings.reconcileDelay())))
                .flatMap(job -> lifecycle.events().runtimeRefusedAccess(job, reason)))
        .onErrorResume(
            e -> {
              log.debug("job {}: refusal not recorded: {}", id(), e.toString());
              return Mono.empty();
            })
        .then();
  }

  /**
   * Renews the job's lease with heartbeats while {@code following} runs; a renewal refused (the job
   * was cancelled or settled meanwhile, or its lease handed on) stops following it.
   */
  public Mono<Void> withHeartbeats(Mono<Void> following) {
    Mono<Void> refused =
        Flux.interval(settings.heartbeatInterval())
            .concatMap(tick -> report(new WorkerReport.Heartbeat(token(), null)))
            .filter(renewed -> !renewed)
            .next()
            .then();
    return Mono.firstWithSignal(following, refused);
  }

  Counter failures(String reason) {
    return failures(lifecycle.meters(), profile, reason);
  }

  static Counter failures(MeterRegistry meters, RuntimeProfile profile, String reason) {
    return Counter.builder(profile.failuresMeter())
        .description(profile.failuresDescription())
        .tag("reason", reason)
        .register(meters);
  }
}
