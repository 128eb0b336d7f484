package io.agentteams.scheduler.job.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.job.domain.Answer;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobKind;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.persistence.JobStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/** What an owner does with jobs: read, answer, cancel, and follow a team's activity. */
@Service
public class JobCommands {

  /** A request or hand-off with the receipt that returned its answer, if any. */
  public record ActivityItem(Job job, @Nullable Job receipt) {}

  /** A page of a team's activity and a version that changes whenever any of its jobs changes. */
  public record Activity(List<ActivityItem> items, String version) {}

  private final JobStore jobs;
  private final JobTransitions transitions;
  private final Rosters rosters;
  private final JobLimits limits;

  public JobCommands(
      JobStore jobs, JobTransitions transitions, Rosters rosters, SchedulerProperties properties) {
    this.jobs = jobs;
    this.transitions = transitions;
    this.rosters = rosters;
    this.limits = properties.jobs().limits();
  }

  /** The owner's job; another owner's job is answered as not found. */
  public Mono<Job> find(Caller.Owner owner, UUID jobId) {
    return jobs.find(jobId)
        .filter(job -> job.spec().ownerId().equals(owner.ownerId()))
        .switchIfEmpty(Mono.error(() -> JobProblems.jobNotFound(jobId)));
  }

  /**
   * Answers the job's question with text (a clarification) or JSON (an interrupt). The job queues
   * again and waits for a slot like new work.
   */
  public Mono<Job> answer(
      Caller.Owner owner, UUID jobId, @Nullable String text, @Nullable String json) {
    Answer answer;
    if ((text == null) == (json == null)) {
      return Mono.error(JobProblems.answerShape());
    }
    answer =
        text != null
            ? limits.checkAnswer(InputKind.CLARIFICATION, text)
            : limits.checkAnswer(InputKind.INTERRUPT, json);
    return find(owner, jobId)
        .then(jobs.nextQueuePosition())
        .flatMap(
            position -> transitions.apply(jobId, (job, now) -> job.answer(answer, position, now)));
  }

  /** Cancels an unfinished job; a cancelled job stays cancelled. */
  public Mono<Job> cancel(Caller.Owner owner, UUID jobId) {
    return find(owner, jobId).then(transitions.apply(jobId, (job, now) -> job.cancel(now)));
  }

  /**
   * A team's requests and hand-offs, newest first, each with its receipt.
   *
   * @param before only jobs older than this one (for paging)
   */
  public Mono<Activity> activity(
      Caller.Owner owner, UUID teamId, @Nullable UUID before, int limit) {
    return rosters
        .find(teamId)
        .filter(roster -> roster.ownedBy(owner.ownerId()))
        .switchIfEmpty(Mono.error(() -> DomainFailure.notFound("team", teamId)))
        .then(jobs.teamVersion(teamId))
        .flatMap(
            version ->
                jobs.findRequestsByTeam(teamId, before, limit)
                    .collectList()
                    .flatMap(
                        page ->
                            jobs.findChildren(page.stream().map(Job::id).toArray(UUID[]::new))
                                .filter(child -> child.spec().kind() == JobKind.RECEIPT)
                                .collectMap(child -> child.spec().parentJobId())
                                .map(
                                    receipts -> {
                                      Map<UUID, Job> byParent = new HashMap<>(receipts);
                                      return new Activity(
                                          page.stream()
                                              .map(
                                                  job ->
                                                      new ActivityItem(job, byParent.get(job.id())))
                                              .toList(),
                                          version);
                                    })));
  }
}
