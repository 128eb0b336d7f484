package io.agentteams.scheduler.job.application;

import static io.agentteams.platform.access.AccessPolicy.CallerKind.MEMBER;
import static io.agentteams.platform.access.AccessPolicy.CallerKind.OWNER;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.job.JobProperties;
import io.agentteams.scheduler.job.domain.IfBusy;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.MemberRef;
import io.agentteams.scheduler.job.domain.RequestFingerprint;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * Accepts requests: an owner's request becomes one job per selected recipient, a member's {@code
 * send_member} becomes one hand-off in the chain of the job it is executing ({@link HandOffs}). Who
 * may send is decided here; the limits ({@link RequestLimits}) and the idempotency key are checked
 * under the team's quota lock as the jobs are written ({@link Submissions}), so a refused request
 * leaves nothing written and concurrent retries of one key create its jobs once.
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

  private final RosterAccess access;
  private final JobLimits limits;
  private final HandOffs handOffs;
  private final RequestLimits requestLimits;
  private final Submissions submissions;
  private final Clock clock;

  public JobRequests(
      RosterAccess access,
      JobProperties properties,
      HandOffs handOffs,
      RequestLimits requestLimits,
      Submissions submissions,
      Clock clock) {
    this.access = access;
    this.limits = properties.limits();
    this.handOffs = handOffs;
    this.requestLimits = requestLimits;
    this.submissions = submissions;
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
    return submit(owner, teamId, recipients, text, key, Budget.NONE);
  }

  /**
   * An owner's request: one job per recipient, each starting its own chain with {@code
   * chainBudget}.
   */
  public Mono<Submitted> submit(
      Caller.Owner owner,
      UUID teamId,
      List<String> recipients,
      @Nullable String text,
      @Nullable String key,
      Budget chainBudget) {
    return submit(owner, teamId, recipients, text, key, chainBudget, IfBusy.ENQUEUE);
  }

  /**
   * An owner's request with a chain budget; with {@link IfBusy#REJECT} it is refused when a
   * recipient's conversation is busy with an unfinished job.
   */
  public Mono<Submitted> submit(
      Caller.Owner owner,
      UUID teamId,
      List<String> recipients,
      @Nullable String text,
      @Nullable String key,
      Budget chainBudget,
      IfBusy ifBusy) {
    String input = limits.input().checkNotBlank(text);
    String idempotencyKey = checkKey(key);
    return access
        .check(owner, teamId, OWNER_REQUESTS)
        .map(
            grant -> ownerSubmission(grant, recipients, input, idempotencyKey, chainBudget, ifBusy))
        .flatMap(
            submission ->
                submissions.submit(
                    submission, quota -> requestLimits.ofOwnerRequest(quota, submission)));
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
    return handOff(member, teamId, recipients, text, key, Budget.NONE);
  }

  /**
   * A member's hand-off; {@code chainBudget} applies when it starts a chain of its own (a hand-off
   * within a chain keeps the chain's budget).
   */
  public Mono<Submitted> handOff(
      Caller.Member member,
      UUID teamId,
      List<String> recipients,
      @Nullable String text,
      @Nullable String key,
      Budget chainBudget) {
    return handOff(member, teamId, recipients, text, key, chainBudget, IfBusy.ENQUEUE);
  }

  /** A member's hand-off with a chain budget and what to do when the recipient is busy. */
  public Mono<Submitted> handOff(
      Caller.Member member,
      UUID teamId,
      List<String> recipients,
      @Nullable String text,
      @Nullable String key,
      Budget chainBudget,
      IfBusy ifBusy) {
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
        .flatMap(
            grant ->
                handOffs.submission(grant, recipients, input, idempotencyKey, chainBudget, ifBusy))
        .flatMap(
            submission ->
                submissions.submit(
                    submission, quota -> requestLimits.ofHandOff(quota, submission)));
  }

  private Submission ownerSubmission(
      Grant<Roster> grant,
      List<String> recipients,
      String input,
      String key,
      Budget budget,
      IfBusy ifBusy) {
    UUID teamId = grant.team().teamId();
    List<MemberRef> targets = Recipients.of(grant.team(), recipients);
    String fingerprint =
        RequestFingerprint.of(JobSpec.OWNER, Recipients.names(targets), input, null);
    Instant now = clock.instant();
    List<JobSpec> specs =
        targets.stream()
            .map(
                target ->
                    JobSpec.ownerRequest(
                        UUID.randomUUID(), teamId, grant.ownerId(), target, input, key, now))
            .toList();
    return new Submission(
        teamId,
        grant.ownerId(),
        JobSpec.OWNER,
        key,
        fingerprint,
        specs,
        budget,
        ifBusy,
        JobCommands.actor(grant),
        now);
  }

  private String checkKey(@Nullable String key) {
    return key == null ? UUID.randomUUID().toString() : limits.idempotencyKey().checkNotBlank(key);
  }
}
