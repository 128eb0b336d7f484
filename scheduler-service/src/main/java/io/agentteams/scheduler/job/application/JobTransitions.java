package io.agentteams.scheduler.job.application;

import io.agentteams.scheduler.budget.application.Spending;
import io.agentteams.scheduler.budget.domain.BudgetExceeded;
import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.job.JobProperties;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobChange;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.job.persistence.QuotaStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Applies one transition to one job under its row lock, with everything that follows from it in the
 * same transaction: the slot released, usage counted, a receipt for a finished hand-off, the
 * events.
 *
 * <p>Locks are always taken in the same order — the job, then its team's outbox key and its ledger
 * rows (only when usage is reserved or settled), then its team's quota row (only for a receipt) —
 * so transitions, submissions and admission passes never wait on each other in a cycle.
 */
@Service
public class JobTransitions {

  /** A change to a job; returns the state transition it made, or null when it made none. */
  @FunctionalInterface
  public interface Transition {
    @Nullable JobChange apply(Job job, Instant now);
  }

  private final JobStore jobs;
  private final QuotaStore quotas;
  private final JobEvents events;
  private final TransactionalOperator transactions;
  private final JobLimits limits;
  private final Spending spending;
  private final Clock clock;

  public JobTransitions(
      JobStore jobs,
      QuotaStore quotas,
      JobEvents events,
      TransactionalOperator transactions,
      Spending spending,
      JobProperties properties,
      Clock clock) {
    this.spending = spending;
    this.jobs = jobs;
    this.quotas = quotas;
    this.events = events;
    this.transactions = transactions;
    this.limits = properties.limits();
    this.clock = clock;
  }

  /** Locks the job (waiting for its lock), applies the transition, commits. */
  public Mono<Job> apply(UUID jobId, Transition transition) {
    return transactions.transactional(
        jobs.lock(jobId)
            .switchIfEmpty(Mono.error(() -> JobProblems.jobNotFound(jobId)))
            .flatMap(job -> applyLocked(job, transition)));
  }

  /**
   * Like {@link #apply}, but when another transaction holds the job it does nothing and completes
   * empty, so sweepers on several replicas never queue up behind each other.
   */
  public Mono<Job> applyIfFree(UUID jobId, Transition transition) {
    return transactions.transactional(
        jobs.lockIfFree(jobId).flatMap(job -> applyLocked(job, transition)));
  }

  /**
   * Applies the transition to a job the current transaction has locked. When the job's reported
   * usage grew and it is still unfinished, its hold in the ledger grows with it; a budget with no
   * room for that stops the job at once ({@code budget-exceeded}).
   */
  public Mono<Job> applyLocked(Job job, Transition transition) {
    return Mono.defer(
        () -> {
          Instant now = clock.instant();
          Usage before = job.usage();
          JobChange change = transition.apply(job, now);
          if (job.state().finished() || job.usage().equals(before)) {
            return followUp(job, change, now).thenReturn(job);
          }
          return spending
              .reported(job.spender(), now)
              .flatMap(
                  stopped -> {
                    JobChange made = change;
                    if (stopped.isPresent()) {
                      JobChange stop =
                          job.stopForBudget(
                              BudgetExceeded.CODE + ": " + stopped.get().detail(), now);
                      made = stop == null ? change : merged(change, stop);
                    }
                    return followUp(job, made, now).thenReturn(job);
                  });
        });
  }

  /** Two changes made in one transaction, as the one that took the job from the first's state. */
  private static @Nullable JobChange merged(@Nullable JobChange first, JobChange second) {
    return first == null
        ? second
        : new JobChange(second.jobId(), first.from(), second.to(), second.revision());
  }

  /**
   * Writes a job after a change and does what follows from it: releases its slot when it left a
   * slot-holding state, settles a finished job's usage in the ledger, returns a finished hand-off's
   * answer as a receipt, and appends the events.
   */
  public Mono<Void> followUp(Job job, @Nullable JobChange change, Instant now) {
    Mono<Void> steps = Mono.empty();
    if (change != null && change.releasedSlot()) {
      steps = steps.then(jobs.releaseSlot(job.id()));
    }
    if (change != null && change.to().finished()) {
      steps = steps.then(spending.settle(job.spender(), now));
    }
    Mono<Optional<Job>> receipt =
        job.needsReceipt()
            ? createReceipt(job, now).map(Optional::of).defaultIfEmpty(Optional.empty())
            : Mono.just(Optional.empty());
    return steps
        .then(receipt)
        .flatMap(
            created ->
                jobs.update(job, now)
                    .then(change == null ? Mono.empty() : events.changed(job, change))
                    .then(created.map(events::created).orElse(Mono.empty())));
  }

  /**
   * Creates the receipt that returns a finished hand-off's answer to the member that asked, if the
   * team has room for one more receipt; otherwise notes on the hand-off why there is none.
   */
  private Mono<Job> createReceipt(Job handoff, Instant now) {
    return quotas
        .lockTeam(handoff.spec().teamId(), handoff.spec().ownerId())
        .flatMap(
            quota -> {
              if (!limits.receiptFits(quota.receipts())) {
                handoff.receiptRefused(
                    "not returned: the team holds "
                        + quota.receipts()
                        + " receipts (scheduler.team-max-receipts)");
                return Mono.empty();
              }
              UUID receiptId = UUID.randomUUID();
              return jobs.nextQueuePosition()
                  .flatMap(
                      position -> {
                        Job receipt = Job.create(handoff.receiptSpec(receiptId, now), position);
                        handoff.receiptCreated(receiptId);
                        return jobs.insert(receipt)
                            .then(quotas.addToTeam(handoff.spec().teamId(), 0, 1))
                            .thenReturn(receipt);
                      });
            });
  }
}
