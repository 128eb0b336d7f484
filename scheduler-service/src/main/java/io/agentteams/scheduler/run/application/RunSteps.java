package io.agentteams.scheduler.run.application;

import io.agentteams.platform.roster.Roster;
import io.agentteams.scheduler.job.application.JobTransitions;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.MemberRef;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.run.domain.JobOrder;
import io.agentteams.scheduler.run.domain.Run;
import io.agentteams.scheduler.run.messaging.RunEvents;
import io.agentteams.scheduler.run.persistence.RunStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The end of every run transition, inside its transaction: the jobs it ordered are created (each
 * recorded against its slot, so a task is never dispatched twice), the run and its timeline are
 * written and announced, and the jobs it wants cancelled are cancelled.
 */
@Component
class RunSteps {

  private final JobStore jobs;
  private final JobEvents jobEvents;
  private final JobTransitions transitions;
  private final RunStore runs;
  private final RunEvents runEvents;

  RunSteps(
      JobStore jobs,
      JobEvents jobEvents,
      JobTransitions transitions,
      RunStore runs,
      RunEvents runEvents) {
    this.jobs = jobs;
    this.jobEvents = jobEvents;
    this.transitions = transitions;
    this.runs = runs;
    this.runEvents = runEvents;
  }

  /** Creates the ordered jobs, writes the run, and cancels the jobs it let go. */
  Mono<Run> finish(Run run, List<JobOrder> orders, Roster roster, Instant now) {
    List<JobOrder> ordered = orders;
    Optional<String> missing =
        orders.stream().map(JobOrder::member).filter(m -> roster.member(m).isEmpty()).findFirst();
    if (missing.isPresent()) {
      // The member left the team after the run named it: no job can be made for it.
      run.abandon("member '" + missing.get() + "' is no longer on the team", now);
      ordered = List.of();
    }
    // Cancel first: a job's lock is taken before this transaction appends to the team's outbox,
    // in the order every job transition takes them, so the two never wait on each other.
    return Flux.fromIterable(run.cancellations())
        .concatMap(this::cancel)
        .thenMany(Flux.fromIterable(ordered))
        .concatMap(order -> create(run, order, roster, now))
        // Deferred: the run is written as it is once every job exists and is recorded on it.
        .then(Mono.defer(() -> runs.update(run)))
        .then(Mono.defer(() -> runEvents.recorded(run)))
        .then(Mono.just(run));
  }

  private Mono<Void> create(Run run, JobOrder order, Roster roster, Instant now) {
    Roster.Member m = roster.member(order.member()).orElseThrow();
    UUID jobId = UUID.randomUUID();
    JobSpec spec =
        JobSpec.ownerRequest(
            jobId,
            run.teamId(),
            run.ownerId(),
            new MemberRef(m.name(), m.agentId(), m.conversationId()),
            order.input(),
            "run:" + run.id() + ":" + order.slot(),
            now);
    return jobs.nextQueuePosition()
        .map(position -> Job.create(spec, position))
        .flatMap(job -> jobs.insert(job).then(jobEvents.created(job)))
        .then(runs.insertJob(run.id(), order, jobId))
        .doOnSuccess(ignored -> run.dispatched(order, jobId, now));
  }

  private Mono<Void> cancel(UUID jobId) {
    return transitions
        .apply(jobId, (job, at) -> job.state().finished() ? null : job.cancel(at))
        .then();
  }
}
