package io.agentteams.scheduler.job.application;

import static io.agentteams.platform.access.AccessPolicy.CallerKind.MEMBER;
import static io.agentteams.platform.access.AccessPolicy.CallerKind.OWNER;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Acting;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.job.domain.BudgetLimits;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.MemberRef;
import io.agentteams.scheduler.job.domain.RequestFingerprint;
import io.agentteams.scheduler.job.domain.Usage;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.job.persistence.QuotaStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Accepts requests: an owner's request becomes one job per selected recipient, a member's {@code
 * send_member} becomes one hand-off in the chain of the job it is executing. Limits and the
 * idempotency key are checked under the team's quota lock, so a refused request leaves nothing
 * written and concurrent retries of one key create its jobs once.
 */
@Service
public class JobRequests {

  /** A failed or deleted team accepts no requests; a team in any other status does. */
  private static final Set<TeamStatus> ACCEPTING =
      EnumSet.complementOf(EnumSet.of(TeamStatus.DELETED, TeamStatus.FAILED));

  /** The team's owner sends requests to the team's members. */
  static final AccessPolicy OWNER_REQUESTS =
      AccessPolicy.admitting(OWNER)
          .keepingDeletedTeams()
          .activeIn(ACCEPTING, JobProblems::teamNotActive);

  /**
   * A member hands work to another member of its own team; a member token for another team is
   * refused before anything is read.
   */
  static final AccessPolicy HANDOFFS =
      AccessPolicy.admitting(MEMBER)
          .refusingForeignTokens((member, teamId) -> TeamAccess.notFound(teamId))
          .refusingNonMembers((member, teamId) -> JobProblems.notAMember(member.member(), teamId))
          .keepingDeletedTeams()
          .activeIn(ACCEPTING, JobProblems::teamNotActive);

  /** What a submission produced; {@code replayed} when an earlier one with the key did. */
  public record Submitted(List<Job> jobs, boolean replayed) {}

  /**
   * A submission as decided before the team's quota is locked: the jobs it creates unless its
   * idempotency key already created them.
   */
  private record Submission(
      UUID teamId,
      String ownerId,
      String scope,
      String key,
      String fingerprint,
      List<JobSpec> specs,
      Instant now) {}

  private final RosterAccess access;
  private final JobStore jobs;
  private final QuotaStore quotas;
  private final JobEvents events;
  private final TransactionalOperator transactions;
  private final JobLimits limits;
  private final BudgetLimits budgets;
  private final Clock clock;

  public JobRequests(
      RosterAccess access,
      JobStore jobs,
      QuotaStore quotas,
      JobEvents events,
      TransactionalOperator transactions,
      SchedulerProperties properties,
      Clock clock) {
    this.access = access;
    this.jobs = jobs;
    this.quotas = quotas;
    this.events = events;
    this.transactions = transactions;
    this.limits = properties.jobs().limits();
    this.budgets = properties.budget().limits();
    this.clock = clock;
  }

  /**
   * Completes when the caller (the team's owner or one of its members) may send the team requests;
   * the refusal otherwise. Requests ask first, before their body is read, so an outsider learns
   * only "not found" whatever it sends.
   */
  public Mono<Void> admit(Caller caller, UUID teamId) {
    if (caller instanceof Caller.Owner owner) {
      return access.check(owner, teamId, OWNER_REQUESTS).then();
    }
    if (caller instanceof Caller.Member member) {
      return access.check(member, teamId, HANDOFFS).then();
    }
    return Mono.empty();
  }

  /** An owner's request: one job per recipient, each starting its own chain. */
  public Mono<Submitted> submit(
      Caller.Owner owner,
      UUID teamId,
      List<String> recipients,
      @Nullable String text,
      @Nullable String key) {
    String input = limits.input().checkNotBlank(text);
    String idempotencyKey = checkKey(key);
    return access
        .check(owner, teamId, OWNER_REQUESTS)
        .map(grant -> ownerSubmission(grant, recipients, input, idempotencyKey))
        .flatMap(
            submission ->
                transactions.transactional(
                    submitOnce(submission, quota -> ownerLimits(quota, submission))));
  }

  /**
   * A member's hand-off to one other member. With a token minted for a job, the hand-off inherits
   * that job's chain and names it as its parent; without one it starts its own chain.
   */
  public Mono<Submitted> handOff(
      Caller.Member member,
      UUID teamId,
      List<String> recipients,
      @Nullable String text,
      @Nullable String key) {
    Optional<DomainFailure> otherTeam = access.screen(member, teamId, HANDOFFS);
    if (otherTeam.isPresent()) {
      return Mono.error(otherTeam.get());
    }
    if (recipients.size() != 1) {
      return Mono.error(JobProblems.oneRecipient());
    }
    String input = limits.input().checkNotBlank(text);
    String idempotencyKey = checkKey(key);
    return access
        .check(member, teamId, HANDOFFS)
        .flatMap(grant -> handOffSubmission(grant, recipients, input, idempotencyKey))
        .flatMap(
            submission ->
                transactions.transactional(
                    submitOnce(
                        submission, quota -> handOffLimits(quota, submission.specs().get(0)))));
  }

  private Submission ownerSubmission(
      Grant<Roster> grant, List<String> recipients, String input, String key) {
    UUID teamId = grant.team().teamId();
    List<MemberRef> targets = targets(grant.team(), recipients);
    String fingerprint = RequestFingerprint.of(JobSpec.OWNER, names(targets), input, null);
    Instant now = clock.instant();
    List<JobSpec> specs =
        targets.stream()
            .map(
                target ->
                    JobSpec.ownerRequest(
                        UUID.randomUUID(), teamId, grant.ownerId(), target, input, key, now))
            .toList();
    return new Submission(teamId, grant.ownerId(), JobSpec.OWNER, key, fingerprint, specs, now);
  }

  private Mono<Submission> handOffSubmission(
      Grant<Roster> grant, List<String> recipients, String input, String key) {
    Acting.AsMember self = grant.member();
    Roster.Member sender = grant.team().member(self.name()).orElseThrow();
    MemberRef from = new MemberRef(sender.name(), sender.agentId(), sender.conversationId());
    MemberRef target = targets(grant.team(), recipients).get(0);
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
                  teamId, grant.ownerId(), scope, key, fingerprint, List.of(spec), now);
            });
  }

  /**
   * Under the team's quota lock: the jobs an earlier submission with the key created, or else the
   * submission's own jobs once it is within its limits.
   */
  private Mono<Submitted> submitOnce(
      Submission submission, Function<QuotaStore.TeamQuota, Mono<Void>> withinLimits) {
    return quotas
        .lockTeam(submission.teamId(), submission.ownerId())
        .flatMap(
            quota ->
                replay(submission)
                    .switchIfEmpty(
                        Mono.defer(() -> withinLimits.apply(quota).then(create(submission)))));
  }

  /** The team's request limit and the owner's budget. */
  private Mono<Void> ownerLimits(QuotaStore.TeamQuota quota, Submission submission) {
    limits.checkTeamRequests(quota.requests(), submission.specs().size());
    return checkOwnerBudget(submission.ownerId());
  }

  /** The team's request limit, the chain's, and the chain's and owner's budgets. */
  private Mono<Void> handOffLimits(QuotaStore.TeamQuota quota, JobSpec spec) {
    limits.checkTeamRequests(quota.requests(), 1);
    return quotas
        .chain(spec.chainId())
        .flatMap(
            chain -> {
              limits.checkChainRequests(chain.requests());
              return quotas
                  .ownerUsage(spec.ownerId())
                  .flatMap(owner -> refuseIfExhausted(chain.usage(), owner));
            });
  }

  private Mono<Void> refuseIfExhausted(Usage chain, Usage owner) {
    return budgets.exhausted(chain, owner).<Mono<Void>>map(Mono::error).orElse(Mono.empty());
  }

  private Mono<Void> checkOwnerBudget(String ownerId) {
    if (!budgets.any()) {
      return Mono.empty();
    }
    return quotas.ownerUsage(ownerId).flatMap(owner -> refuseIfExhausted(Usage.NONE, owner));
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

  private Mono<Submitted> create(Submission submission) {
    UUID teamId = submission.teamId();
    return Flux.fromIterable(submission.specs())
        .concatMap(spec -> createJob(teamId, spec))
        .collectList()
        .flatMap(
            created ->
                quotas
                    .addToTeam(teamId, created.size(), 0)
                    .then(
                        quotas.insertRequestKey(
                            teamId,
                            submission.scope(),
                            submission.key(),
                            submission.fingerprint(),
                            submission.now()))
                    .thenReturn(new Submitted(created, false)));
  }

  private Mono<Job> createJob(UUID teamId, JobSpec spec) {
    return jobs.nextQueuePosition()
        .map(position -> Job.create(spec, position))
        .flatMap(
            job ->
                jobs.insert(job)
                    .then(quotas.addChainRequest(spec.chainId(), teamId))
                    .then(events.created(job))
                    .thenReturn(job));
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

  private static List<MemberRef> targets(Roster roster, List<String> recipients) {
    if (recipients.isEmpty()) {
      throw JobProblems.noRecipients();
    }
    if (new HashSet<>(recipients).size() != recipients.size()) {
      throw JobProblems.duplicateRecipient();
    }
    List<MemberRef> targets = new ArrayList<>();
    for (String name : recipients) {
      Roster.Member member =
          roster.member(name).orElseThrow(() -> JobProblems.unknownMember(roster.teamId(), name));
      targets.add(new MemberRef(member.name(), member.agentId(), member.conversationId()));
    }
    return targets;
  }

  private static List<String> names(List<MemberRef> targets) {
    return targets.stream().map(MemberRef::name).toList();
  }

  private String checkKey(@Nullable String key) {
    return key == null ? UUID.randomUUID().toString() : limits.idempotencyKey().checkNotBlank(key);
  }
}
