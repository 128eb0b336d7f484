package io.agentteams.scheduler.job.application;

import io.agentteams.scheduler.budget.application.Spending;
import io.agentteams.scheduler.job.application.JobRequests.Submitted;
import io.agentteams.scheduler.job.domain.IfBusy;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.job.persistence.QuotaStore;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes a submission's jobs once, in one transaction under the team's quota lock: the jobs an
 * earlier submission with its idempotency key created, or else its own, once it is within its
 * limits and its recipients' busy conversations are dealt with. A refused submission leaves nothing
 * written, and concurrent retries of one key create its jobs once.
 */
@Component
class Submissions {

  private final JobStore jobs;
  private final QuotaStore quotas;
  private final JobEvents events;
  private final Spending spending;
  private final BusyConversations busy;
  private final TransactionalOperator transactions;

  Submissions(
      JobStore jobs,
      QuotaStore quotas,
      JobEvents events,
      Spending spending,
      BusyConversations busy,
      TransactionalOperator transactions) {
    this.jobs = jobs;
    this.quotas = quotas;
    this.events = events;
    this.spending = spending;
    this.busy = busy;
    this.transactions = transactions;
  }

  /** In one transaction: the submission's jobs, written once it is within {@code withinLimits}. */
  Mono<Submitted> submit(
      Submission submission, Function<QuotaStore.TeamQuota, Mono<Void>> withinLimits) {
    return transactions.transactional(submitOnce(submission, withinLimits));
  }

  /**
   * Under the team's quota lock: the jobs an earlier submission with the key created, or else the
   * submission's own jobs once it is within its limits.
   */
  private Mono<Submitted> submitOnce(
      Submission submission, Function<QuotaStore.TeamQuota, Mono<Void>> withinLimits) {
    if (submission.ifBusy() == IfBusy.INTERRUPT) {
      // Locks in the order every transition takes them: the jobs, the team's event key, then
      // (below) its quota row.
      return busy.lockHeads(submission)
          .flatMap(
              heads ->
                  jobs.lockTeamEvents(submission.teamId())
                      .then(
                          underQuota(
                              submission, withinLimits, busy.interruptHeads(submission, heads))));
    }
    return underQuota(
        submission, withinLimits, busy.refuseIfBusy(submission).thenReturn(List.<Job>of()));
  }

  /**
   * Under the team's quota lock: the replay, or the limits, then {@code ifBusy} (which yields the
   * heads it interrupted), then the new jobs.
   */
  private Mono<Submitted> underQuota(
      Submission submission,
      Function<QuotaStore.TeamQuota, Mono<Void>> withinLimits,
      Mono<List<Job>> ifBusy) {
    return quotas
        .lockTeam(submission.teamId(), submission.ownerId())
        .flatMap(
            quota ->
                replay(submission)
                    .switchIfEmpty(
                        Mono.defer(
                            () ->
                                withinLimits
                                    .apply(quota)
                                    .then(ifBusy)
                                    .flatMap(interrupted -> create(submission, interrupted)))));
  }

  /** The jobs an earlier submission with this key created, or a refusal if its body differed. */
  private Mono<Submitted> replay(Submission submission) {
    return quotas
        .requestKey(submission.teamId(), submission.scope(), submission.key())
        .flatMap(
            earlier -> {
              if (!earlier.equals(submission.fingerprint())) {
                return Mono.error(JobProblems.idempotencyKeyReused(submission.key()));
              }
              return jobs.findByKey(submission.teamId(), submission.scope(), submission.key())
                  .collectList()
                  .map(found -> new Submitted(found, true));
            });
  }

  private Mono<Submitted> create(Submission submission, List<Job> interrupted) {
    UUID teamId = submission.teamId();
    return Flux.fromIterable(submission.specs())
        .concatMap(spec -> createJob(teamId, spec, interrupted))
        .collectList()
        .flatMap(
            created ->
                Flux.fromIterable(submission.specs())
                    .filter(spec -> spec.parentJobId() == null)
                    .concatMap(
                        spec ->
                            spending.budgetChain(
                                spec.chainId(),
                                submission.ownerId(),
                                submission.chainBudget(),
                                submission.now()))
                    .then(quotas.addToTeam(teamId, created.size(), 0))
                    .then(
                        quotas.insertRequestKey(
                            teamId,
                            submission.scope(),
                            submission.key(),
                            submission.fingerprint(),
                            submission.now()))
                    .thenReturn(new Submitted(created, false)));
  }

  /**
   * Inserts the job; one whose request interrupted its conversation's head takes that head's place,
   * so it runs next rather than behind the jobs that queued behind the head.
   */
  private Mono<Job> createJob(UUID teamId, JobSpec spec, List<Job> interrupted) {
    String conversation = spec.target().conversationId();
    Mono<Void> takePlace =
        interrupted.stream()
            .filter(head -> head.spec().target().conversationId().equals(conversation))
            .findFirst()
            .map(head -> jobs.takePlaceOf(spec.id(), head.id()))
            .orElse(Mono.empty());
    return jobs.nextQueuePosition()
        .map(position -> Job.create(spec, position))
        .flatMap(
            job ->
                jobs.insert(job)
                    .then(takePlace)
                    .then(quotas.addChainRequest(spec.chainId(), teamId))
                    .then(events.created(job))
                    .thenReturn(job));
  }
}
