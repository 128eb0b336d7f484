package io.agentteams.scheduler.job.application;

import io.agentteams.platform.access.Acting;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.roster.Roster;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.job.domain.IfBusy;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.MemberRef;
import io.agentteams.scheduler.job.domain.RequestFingerprint;
import io.agentteams.scheduler.job.persistence.JobStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * A member's hand-off as a submission: one job for one other member, in the chain of the job the
 * member's token was minted for (that job its parent), or starting a chain of its own.
 */
@Component
class HandOffs {

  private final JobStore jobs;
  private final Clock clock;

  HandOffs(JobStore jobs, Clock clock) {
    this.jobs = jobs;
    this.clock = clock;
  }

  /**
   * The hand-off's submission; only the team's lead interrupts, and no member hands off to itself.
   * {@code budget} applies only when the hand-off starts a chain of its own.
   */
  Mono<Submission> submission(
      Grant<Roster> grant,
      List<String> recipients,
      String input,
      String key,
      Budget budget,
      IfBusy ifBusy) {
    Acting.AsMember self = grant.member();
    if (ifBusy == IfBusy.INTERRUPT && !self.lead()) {
      return Mono.error(JobProblems.notLead(self.name(), grant.team().teamId()));
    }
    Roster.Member sender = grant.team().member(self.name()).orElseThrow();
    MemberRef from = new MemberRef(sender.name(), sender.agentId(), sender.conversationId());
    MemberRef target = Recipients.of(grant.team(), recipients).get(0);
    if (target.name().equals(from.name())) {
      return Mono.error(JobProblems.handoffToSelf());
    }
    UUID teamId = grant.team().teamId();
    return executing(teamId, self)
        .map(Optional::of)
        .defaultIfEmpty(Optional.empty())
        .map(
            executing -> {
              String scope = JobSpec.memberScope(from.name());
              UUID sentFrom = executing.map(Job::id).orElse(null);
              String fingerprint =
                  RequestFingerprint.of(scope, List.of(target.name()), input, sentFrom);
              Instant now = clock.instant();
              JobSpec spec =
                  JobSpec.handoff(
                      UUID.randomUUID(),
                      teamId,
                      grant.ownerId(),
                      target,
                      from,
                      executing.orElse(null),
                      input,
                      key,
                      now);
              return new Submission(
                  teamId,
                  grant.ownerId(),
                  scope,
                  key,
                  fingerprint,
                  List.of(spec),
                  executing.isPresent() ? Budget.NONE : budget,
                  ifBusy,
                  JobCommands.actor(grant),
                  now);
            });
  }

  /** The job a member token was minted for, which must be that member's job in that team. */
  private Mono<Job> executing(UUID teamId, Acting.AsMember member) {
    UUID jobId = member.jobId();
    if (jobId == null) {
      return Mono.empty();
    }
    return jobs.find(jobId)
        .filter(
            job ->
                job.spec().teamId().equals(teamId)
                    && job.spec().target().name().equals(member.name()))
        .switchIfEmpty(Mono.error(() -> JobProblems.notYourJob(jobId, member.name())));
  }
}
