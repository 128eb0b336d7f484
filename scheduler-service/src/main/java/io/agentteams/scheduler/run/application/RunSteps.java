package io.agentteams.scheduler.run.application;

import io.agentteams.platform.roster.Roster;
import io.agentteams.scheduler.job.JobProperties;
import io.agentteams.scheduler.job.application.JobTransitions;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobKind;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.MemberRef;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.job.persistence.QuotaStore;
import io.agentteams.scheduler.run.domain.JobOrder;
import io.agentteams.scheduler.run.domain.Run;
import io.agentteams.scheduler.run.domain.RunPrompts;
import io.agentteams.scheduler.run.domain.TeamContext;
import io.agentteams.scheduler.run.messaging.RunEvents;
import io.agentteams.scheduler.run.persistence.RunStore;
import io.agentteams.scheduler.run.persistence.TeamContextStore;
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
 *
 * <p>A run is one request chain, the owner's request: its chain's id is the run's, and every job it
 * creates (the planner's, each task's, the synthesiser's) is one more request of that chain, as is
 * every hand-off its members make while working on it. So the per-chain request limit ({@code
 * scheduler.chain-max-requests}) bounds a run's jobs with its hand-offs; a job past it is not
 * created and the run stops there, naming the limit.
 */
@Component
class RunSteps {

  private final JobStore jobs;
  private final JobEvents jobEvents;
  private final JobTransitions transitions;
  private final RunStore runs;
  private final RunEvents runEvents;
  private final QuotaStore quotas;
  private final TeamContextStore context;
  private final int chainMaxRequests;

  RunSteps(
      JobStore jobs,
      JobEvents jobEvents,
      JobTransitions transitions,
      RunStore runs,
      RunEvents runEvents,
      QuotaStore quotas,
      TeamContextStore context,
      JobProperties properties) {
    this.jobs = jobs;
    this.jobEvents = jobEvents;
    this.transitions = transitions;
    this.runs = runs;
    this.runEvents = runEvents;
    this.quotas = quotas;
    this.context = context;
    this.chainMaxRequests = properties.chainMaxRequests();
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
    List<JobOrder> creating = ordered;
    return Flux.fromIterable(run.cancellations())
        .concatMap(this::cancel)
        .then(Mono.defer(() -> createAll(run, creating, roster, now)))
        // Deferred: the run is written as it is once every job exists and is recorded on it.
        .then(Mono.defer(() -> runs.update(run)))
        .then(Mono.defer(() -> runEvents.recorded(run)))
        .then(Mono.just(run));
  }

  /**
   * Creates the ordered jobs as requests of the run's chain, under the team's quota lock, which
   * serialises the chain's count with the hand-offs made in it (taken after the cancellations' job
   * locks, in the order job transitions take them). An order past the chain's limit is not created.
   */
  private Mono<Void> createAll(Run run, List<JobOrder> orders, Roster roster, Instant now) {
    if (orders.isEmpty()) {
      return Mono.empty();
    }
    boolean tasks = orders.stream().anyMatch(order -> order.role() == JobOrder.Role.TASK);
    Mono<TeamContext> team = tasks ? context.find(run.teamId()) : Mono.just(TeamContext.NONE);
    return quotas
        .lockTeam(run.teamId(), run.ownerId())
        .then(quotas.chain(run.id()))
        // One statement at a time on the transaction's connection.
        .flatMap(chain -> team.map(teamContext -> new Creating(chain.requests(), teamContext)))
        .flatMap(
            found -> {
              TeamContext teamContext = found.context();
              int[] requests = {found.requests()};
              return Flux.fromIterable(orders)
                  .concatMap(
                      order -> {
                        if (requests[0] + 1 > chainMaxRequests) {
                          run.stoppedAtRequestLimit(
                              order,
                              JobProblems.chainRequests(chainMaxRequests, requests[0] + 1).detail(),
                              now);
                          return Mono.empty();
                        }
                        requests[0]++;
                        return create(run, order, teamContext, roster, now);
                      })
                  .then();
            });
  }

  /** What creating a transition's jobs starts from: the chain's count and the team's context. */
  private record Creating(int requests, TeamContext context) {}

  private Mono<Void> create(
      Run run, JobOrder order, TeamContext teamContext, Roster roster, Instant now) {
    Roster.Member m = roster.member(order.member()).orElseThrow();
    UUID jobId = UUID.randomUUID();
    // The owner's request, in the run's chain rather than a chain of its own.
    JobSpec spec =
        new JobSpec(
            jobId,
            run.teamId(),
            run.ownerId(),
            new MemberRef(m.name(), m.agentId(), m.conversationId()),
            JobKind.REQUEST,
            JobSpec.OWNER,
            null,
            null,
            run.id(),
            order.role() == JobOrder.Role.TASK
                ? RunPrompts.withContext(teamContext, order.input())
                : order.input(),
            JobSpec.OWNER,
            "run:" + run.id() + ":" + order.slot(),
            now);
    return jobs.nextQueuePosition()
        .map(position -> Job.create(spec, position))
        .flatMap(job -> jobs.insert(job).then(jobEvents.created(job)))
        .then(quotas.addChainRequest(run.id(), run.teamId()))
        .then(runs.insertJob(run.id(), order, jobId))
        .doOnSuccess(ignored -> run.dispatched(order, jobId, now));
  }

  private Mono<Void> cancel(UUID jobId) {
    return transitions
        .apply(jobId, (job, at) -> job.state().finished() ? null : job.cancel(at))
        .then();
  }
}
