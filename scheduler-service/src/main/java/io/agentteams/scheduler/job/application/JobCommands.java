package io.agentteams.scheduler.job.application;

import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.job.domain.Answer;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobKind;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.persistence.JobStore;
import java.util.List;
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

  /** The team's owner follows its activity, also once the team is deleted. */
  static final AccessPolicy ACTIVITY =
      AccessPolicy.admitting(AccessPolicy.CallerKind.OWNER).keepingDeletedTeams();

  private final JobStore jobs;
  private final JobTransitions transitions;
  private final RosterAccess access;
  private final JobLimits limits;

  public JobCommands(
      JobStore jobs,
      JobTransitions transitions,
      RosterAccess access,
      SchedulerProperties properties) {
    this.jobs = jobs;
    this.transitions = transitions;
    this.access = access;
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
    return access
        .check(owner, teamId, ACTIVITY)
        .then(jobs.teamVersion(teamId))
        .flatMap(version -> page(teamId, before, limit).map(items -> new Activity(items, version)));
  }

  private Mono<List<ActivityItem>> page(UUID teamId, @Nullable UUID before, int limit) {
    return jobs.findRequestsByTeam(teamId, before, limit).collectList().flatMap(this::withReceipts);
  }

  /** Each request or hand-off with the receipt that returned its answer, if any. */
  private Mono<List<ActivityItem>> withReceipts(List<Job> page) {
    return jobs.findChildren(page.stream().map(Job::id).toArray(UUID[]::new))
        .filter(child -> child.spec().kind() == JobKind.RECEIPT)
        .collectMap(child -> child.spec().parentJobId())
        .map(
            receipts ->
                page.stream().map(job -> new ActivityItem(job, receipts.get(job.id()))).toList());
  }
}
