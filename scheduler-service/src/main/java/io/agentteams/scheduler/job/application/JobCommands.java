package io.agentteams.scheduler.job.application;

import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Acting;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.scheduler.job.JobProperties;
import io.agentteams.scheduler.job.domain.Answer;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobChange;
import io.agentteams.scheduler.job.domain.JobKind;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * What an owner does with jobs (read, answer, cancel, follow a team's activity) and what the team's
 * lead may do with its members' jobs (interrupt them).
 */
@Service
public class JobCommands {

  /** A request or hand-off with the receipt that returned its answer, if any. */
  public record ActivityItem(Job job, @Nullable Job receipt) {}

  /** A page of a team's activity and a version that changes whenever any of its jobs changes. */
  public record Activity(List<ActivityItem> items, String version) {}

  /** The team's owner follows its activity, also once the team is deleted. */
  static final AccessPolicy ACTIVITY =
      AccessPolicy.admitting(AccessPolicy.CallerKind.OWNER).keepingDeletedTeams();

  /**
   * Interrupts: the team's owner, or one of its members, which must then be the lead. A member
   * token for another team is answered "not found" before anything is read.
   */
  static final AccessPolicy INTERRUPTS =
      AccessPolicy.admitting(AccessPolicy.CallerKind.OWNER, AccessPolicy.CallerKind.MEMBER)
          .refusingForeignTokens((member, teamId) -> TeamAccess.notFound(teamId))
          .refusingNonMembers((member, teamId) -> JobProblems.notAMember(member.member(), teamId));

  /** The meter that counts interrupted jobs, tagged by who asked ({@code via}). */
  public static final String INTERRUPTED = "agentteams.scheduler.jobs.interrupted";

  private final JobStore jobs;
  private final JobTransitions transitions;
  private final RosterAccess access;
  private final JobLimits limits;
  private final MeterRegistry meters;

  public JobCommands(
      JobStore jobs,
      JobTransitions transitions,
      RosterAccess access,
      JobProperties properties,
      MeterRegistry meters) {
    this.jobs = jobs;
    this.transitions = transitions;
    this.access = access;
    this.limits = properties.limits();
    this.meters = meters;
    // Registered up front, so dashboards find the series before the first interrupt.
    for (String via : List.of("lead", "owner", "if_busy")) {
      interrupts(meters, via);
    }
  }

  /**
   * Who interrupts on this grant, as the interrupted job's reason names it: the owner, or the
   * member the grant is for, which must lead the team ({@code not-lead} otherwise).
   */
  public static String interrupter(Grant<Roster> grant) {
    if (grant.as() instanceof Acting.AsMember member && !member.lead()) {
      throw JobProblems.notLead(member.name(), grant.team().teamId());
    }
    return actor(grant);
  }

  /** Who acts on this grant, as a reason names them. */
  static String actor(Grant<Roster> grant) {
    if (grant.as() instanceof Acting.AsMember member) {
      return (member.lead() ? "the lead " : "member ") + member.name();
    }
    return "the owner";
  }

  /** Counts an interrupt that took effect, by who asked for it. */
  public static void countInterrupt(MeterRegistry meters, String via) {
    interrupts(meters, via).increment();
  }

  private static Counter interrupts(MeterRegistry meters, String via) {
    return Counter.builder(INTERRUPTED)
        .description("Jobs interrupted by their team's lead or owner, by how it was asked")
        .tag("via", via)
        .register(meters);
  }

  /**
   * The team's lead (or its owner) interrupts a member's job whose turn is under way: the runtime
   * is asked to stop the turn and the job ends {@code interrupted}, its slot and conversation free
   * for the next job and nothing of the conversation discarded. A member that does not lead the
   * team is refused ({@code not-lead}) before the job is read; a job of another team is not found;
   * a job with no turn under way is refused naming its state. Repeating it changes nothing.
   */
  public Mono<Job> interrupt(Caller caller, UUID teamId, UUID jobId) {
    AtomicReference<@Nullable JobChange> made = new AtomicReference<>();
    return access
        .check(caller, teamId, INTERRUPTS)
        .flatMap(
            grant -> {
              String by = interrupter(grant);
              return transitions.apply(
                  jobId,
                  (job, now) -> {
                    if (!job.spec().teamId().equals(teamId)) {
                      throw JobProblems.jobNotFound(jobId);
                    }
                    JobChange change = job.interrupt("interrupted by " + by, now);
                    made.set(change);
                    return change;
                  });
            })
        .doOnNext(
            job -> {
              if (made.get() != null) {
                countInterrupt(meters, caller instanceof Caller.Member ? "lead" : "owner");
              }
            });
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
