package io.agentteams.scheduler.dispatch.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.dispatch.persistence.OfferStore;
import io.agentteams.scheduler.job.JobProperties;
import io.agentteams.scheduler.job.application.JobTransitions;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobChange;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.domain.Lease;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The {@link DispatchPort} over the job table: leases with fencing tokens, in Postgres. */
@Service
public class LeasedDispatch implements DispatchPort {

  private final OfferStore offers;
  private final JobStore jobs;
  private final JobTransitions transitions;
  private final TransactionalOperator transactions;
  private final JobMemberTokens tokens;
  private final SchedulerProperties.Dispatch properties;
  private final JobLimits limits;
  private final Clock clock;
  private final MeterRegistry meters;

  public LeasedDispatch(
      OfferStore offers,
      JobStore jobs,
      JobTransitions transitions,
      TransactionalOperator transactions,
      JobMemberTokens tokens,
      SchedulerProperties properties,
      JobProperties jobProperties,
      Clock clock,
      MeterRegistry meters) {
    this.offers = offers;
    this.jobs = jobs;
    this.transitions = transitions;
    this.transactions = transactions;
    this.tokens = tokens;
    this.properties = properties.dispatch();
    this.limits = jobProperties.limits();
    this.clock = clock;
    this.meters = meters;
  }

  /**
   * What a push runtime (webhook, A2A) claims for an agent it has {@code room} for: the runtime is
   * always there to take the agent's jobs, so any that gave their slot back waiting for a worker
   * (schedule-to-start) queue again first; then up to {@code room} (at most a claim's worth) of its
   * offerable jobs under the runtime's lease.
   */
  public Flux<Offer> claimForRuntime(AgentKey agent, String holder, int room, Duration leaseTtl) {
    if (room <= 0) {
      return Flux.empty();
    }
    return workerHasRoom(agent, room)
        .thenMany(claim(agent, holder, Math.min(room, properties.offersPerClaim()), leaseTtl));
  }

  /** Offers are handed out only once the claim committed, so a report never waits on it. */
  @Override
  public Flux<Offer> claim(AgentKey agent, String holder, int max, Duration leaseTtl) {
    Mono<List<Offer>> claimed =
        offers
            .lockOfferable(agent, max)
            .collectList()
            .flatMapIterable(locked -> locked)
            .concatMap(
                job -> {
                  Instant now = clock.instant();
                  String token = (job.offers() + 1) + "-" + UUID.randomUUID();
                  Lease previous = job.lease();
                  boolean reconcile = job.offer(token, now, leaseTtl, holder);
                  if (reconcile) {
                    meters.counter("agentteams.scheduler.reconciliation.offers").increment();
                  }
                  return jobs.update(job, now)
                      .thenReturn(
                          offer(job, reconcile, reconcile && previous != null ? previous : null));
                })
            .collectList();
    return transactions
        .transactional(claimed)
        .timeout(properties.stepTimeout())
        .flatMapIterable(list -> list);
  }

  /**
   * Completes when the job runs on the worker's agent; "not found" otherwise. Reports ask first,
   * before their body is read, so another worker learns nothing of the job whatever it sends.
   */
  public Mono<Void> admit(Caller.Worker worker, UUID jobId) {
    return jobs.find(jobId)
        .filter(job -> job.runsOn(worker.ownerId(), worker.agentId()))
        .switchIfEmpty(Mono.error(JobProblems.jobNotFound(jobId)))
        .then();
  }

  @Override
  public Mono<Integer> leasesHeldBy(AgentKey agent, String holder) {
    return offers.leasesHeldBy(agent, holder).timeout(properties.stepTimeout());
  }

  /**
   * Each job queues again in its own step of the transaction under its row lock (skipping jobs
   * another transaction holds), with its event, so a replica racing this one never requeues a job
   * twice and the time-out sweep never sees a half-changed job.
   */
  @Override
  public Mono<Integer> workerHasRoom(AgentKey agent, int room) {
    if (room <= 0) {
      return Mono.just(0);
    }
    // Almost always nothing waits: one look at a tiny partial index settles that.
    Mono<Integer> requeued =
        offers
            .lockWaitingForWorker(agent, room)
            .collectList()
            .flatMap(
                waiting ->
                    waiting.isEmpty()
                        ? Mono.just(0)
                        : offers
                            .onTheWay(agent)
                            .flatMapMany(
                                pending ->
                                    Flux.fromIterable(waiting).take(Math.max(0, room - pending)))
                            .concatMap(
                                job ->
                                    transitions.applyLocked(job, (j, now) -> j.workerAvailable()))
                            .count()
                            .map(Long::intValue));
    return transactions
        .transactional(requeued)
        .timeout(properties.stepTimeout())
        .doOnNext(n -> meters.counter("agentteams.scheduler.offer.requeued").increment(n));
  }

  @Override
  public Flux<AgentKey> withWorkForStreams(Collection<AgentKey> agents) {
    return agents.isEmpty()
        ? Flux.empty()
        : offers.withWorkForStreams(agents).timeout(properties.stepTimeout());
  }

  @Override
  public Mono<Job> report(Caller.Worker worker, UUID jobId, WorkerReport report) {
    return transitions
        .apply(
            jobId,
            (job, now) -> {
              if (!job.runsOn(worker.ownerId(), worker.agentId())) {
                throw JobProblems.jobNotFound(jobId);
              }
              JobState before = job.state();
              JobChange change = report.applyTo(job, now, limits);
              if (before == JobState.UNKNOWN && change != null) {
                meters
                    .counter("agentteams.scheduler.reconciled", "outcome", change.to().wire())
                    .increment();
              }
              return change;
            })
        .timeout(properties.stepTimeout());
  }

  /**
   * A fresh member token for a job the runtime still works on under {@code leaseToken}; none once
   * that lease is no longer the job's current one (or the job is over).
   */
  public @Nullable MemberToken memberToken(Job job, String leaseToken) {
    if (!job.heldUnder(leaseToken)) {
      return null;
    }
    Instant now = clock.instant();
    return new MemberToken(
        tokens.issue(job, leaseToken, properties.memberTokenTtl()),
        now.plus(properties.memberTokenTtl()));
  }

  /** A member token and when it expires. */
  public record MemberToken(String token, Instant expiresAt) {}

  private Offer offer(Job job, boolean reconcile, @Nullable Lease previous) {
    Lease lease = Objects.requireNonNull(job.lease());
    Instant now = clock.instant();
    MemberToken member =
        new MemberToken(
            tokens.issue(job, lease.token(), properties.memberTokenTtl()),
            now.plus(properties.memberTokenTtl()));
    return new Offer(
        job,
        job.spec(),
        lease,
        reconcile,
        job.resume() ? job.question() : null,
        job.resume() ? job.answerGiven() : null,
        Offer.teamContextPath(job.spec()),
        member.token(),
        member.expiresAt(),
        previous == null ? null : previous.holder());
  }
}
