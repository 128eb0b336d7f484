package io.agentteams.scheduler.job.application;

import io.agentteams.scheduler.job.domain.IfBusy;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What a submission does when a recipient's conversation is busy with an unfinished job: {@code
 * if_busy: interrupt} stops the head whose turn is under way and takes its place, {@code reject}
 * refuses the submission naming the head, {@code enqueue} queues behind it.
 */
@Component
class BusyConversations {

  /**
   * The states of a head whose turn its runtime has begun, which {@code if_busy: interrupt} stops.
   */
  private static final Set<JobState> TURN_UNDER_WAY =
      EnumSet.of(JobState.RUNNING, JobState.UNKNOWN, JobState.WAITING_INPUT);

  private final JobStore jobs;
  private final JobTransitions transitions;
  private final MeterRegistry meters;

  BusyConversations(JobStore jobs, JobTransitions transitions, MeterRegistry meters) {
    this.jobs = jobs;
    this.transitions = transitions;
    this.meters = meters;
  }

  /**
   * With {@code if_busy: interrupt}: locks the head of each recipient's conversation, in
   * conversation order (so two submissions never wait on each other in a cycle). A head locked
   * stays the head until the transaction ends: no transition can end it meanwhile, and jobs created
   * later queue behind it.
   */
  Mono<List<Job>> lockHeads(Submission submission) {
    return Flux.fromIterable(submission.specs())
        .map(spec -> spec.target().conversationId())
        .distinct()
        .sort()
        .concatMap(conversation -> lockHead(conversation, 5))
        .collectList();
  }

  /**
   * The conversation's unfinished head, locked; a head that ended before its lock is read again.
   */
  private Mono<Job> lockHead(String conversationId, int attempts) {
    return jobs.conversationHead(conversationId)
        .flatMap(head -> jobs.lock(head.id()))
        .flatMap(
            locked ->
                !locked.state().finished()
                    ? Mono.just(locked)
                    : attempts <= 1 ? Mono.empty() : lockHead(conversationId, attempts - 1));
  }

  /**
   * Interrupts each locked head whose turn its runtime has begun (running, its outcome unknown, or
   * paused with a question), naming who asked and the job that takes its place. A head that has not
   * begun (queued, admitted but not yet started, waiting for a worker) is left: the new job queues
   * behind it, so two interrupting requests run one after the other rather than the second cutting
   * off the first before it started. Yields the heads it interrupted, whose places the new jobs
   * take.
   */
  Mono<List<Job>> interruptHeads(Submission submission, List<Job> heads) {
    return Flux.fromIterable(heads)
        .filter(head -> TURN_UNDER_WAY.contains(head.state()))
        .concatMap(
            head -> {
              JobSpec next =
                  submission.specs().stream()
                      .filter(
                          spec ->
                              spec.target()
                                  .conversationId()
                                  .equals(head.spec().target().conversationId()))
                      .findFirst()
                      .orElseThrow();
              String reason =
                  "interrupted by " + submission.interrupter() + " for job " + next.id();
              return transitions
                  .applyLocked(head, (job, now) -> job.interrupt(reason, now))
                  .doOnNext(job -> JobCommands.countInterrupt(meters, "if_busy"))
                  .thenReturn(head);
            })
        .collectList();
  }

  /**
   * With {@code if_busy: reject}, refuses the submission when a recipient's conversation has an
   * unfinished job, naming it. Under the team's quota lock, so no other submission of the team
   * slips a job in between.
   */
  Mono<Void> refuseIfBusy(Submission submission) {
    if (submission.ifBusy() != IfBusy.REJECT) {
      return Mono.empty();
    }
    return Flux.fromIterable(submission.specs())
        .concatMap(
            spec ->
                jobs.conversationHead(spec.target().conversationId())
                    .flatMap(
                        busy ->
                            Mono.<Void>error(
                                JobProblems.conversationBusy(
                                    spec.target().name(), busy.id(), busy.state()))))
        .then();
  }
}
