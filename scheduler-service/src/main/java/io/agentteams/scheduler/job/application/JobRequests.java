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
import io.agentteams.scheduler.budget.application.Spending;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.job.domain.IfBusy;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.domain.MemberRef;
import io.agentteams.scheduler.job.domain.RequestFingerprint;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.job.persistence.QuotaStore;
import io.micrometer.core.instrument.MeterRegistry;
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

  /**
   * The states of a head whose turn its runtime has begun, which {@code if_busy: interrupt} stops.
   */
  private static final Set<JobState> TURN_UNDER_WAY =
      EnumSet.of(JobState.RUNNING, JobState.UNKNOWN, JobState.WAITING_INPUT);

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
      Budget chainBudget,
      IfBusy ifBusy,
      String interrupter,
      Instant now) {}

  private final RosterAccess access;
  private final JobStore jobs;
  private final QuotaStore quotas;
  private final JobEvents events;
  private final TransactionalOperator transactions;
  private final JobLimits limits;
  private final Spending spending;
  private final JobTransitions transitions;
  private final MeterRegistry meters;
  private final Clock clock;

  public JobRequests(
      RosterAccess access,
      JobStore jobs,
      QuotaStore quotas,
      JobEvents events,
      TransactionalOperator transactions,
      Spending spending,
      JobTransitions transitions,
      SchedulerProperties properties,
      MeterRegistry meters,
      Clock clock) {
    this.access = access;
    this.jobs = jobs;
    this.quotas = quotas;
    this.events = events;
    this.transactions = transactions;
    this.limits = properties.jobs().limits();
    this.spending = spending;
    this.transitions = transitions;
    this.meters = meters;
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
                handOffSubmission(grant, recipients, input, idempotencyKey, chainBudget, ifBusy))
        .flatMap(
            submission ->
                transactions.transactional(
                    submitOnce(submission, quota -> handOffLimits(quota, submission))));
  }

  private Submission ownerSubmission(
      Grant<Roster> grant,
      List<String> recipients,
      String input,
      String key,
      Budget budget,
      IfBusy ifBusy) {
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

  private Mono<Submission> handOffSubmission(
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

  /**
   * Under the team's quota lock: the jobs an earlier submission with the key created, or else the
   * submission's own jobs once it is within its limits.
   */
  private Mono<Submitted> submitOnce(
      Submission submission, Function<QuotaStore.TeamQuota, Mono<Void>> withinLimits) {
    if (submission.ifBusy() == IfBusy.INTERRUPT) {
      // Locks in the order every transition takes them: the jobs, the team's event key, then
      // (below) its quota row.
      return lockHeads(submission)
          .flatMap(
              heads ->
                  jobs.lockTeamEvents(submission.teamId())
                      .then(
                          underQuota(submission, withinLimits, interruptHeads(submission, heads))));
    }
    return underQuota(
        submission, withinLimits, refuseIfBusy(submission).thenReturn(List.<Job>of()));
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

  /**
   * With {@code if_busy: interrupt}: locks the head of each recipient's conversation, in
   * conversation order (so two submissions never wait on each other in a cycle). A head locked
   * stays the head until the transaction ends: no transition can end it meanwhile, and jobs created
   * later queue behind it.
   */
  private Mono<List<Job>> lockHeads(Submission submission) {
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
  private Mono<List<Job>> interruptHeads(Submission submission, List<Job> heads) {
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
  private Mono<Void> refuseIfBusy(Submission submission) {
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

  /** The team's request limit, and the budgets the new jobs would count against. */
  private Mono<Void> ownerLimits(QuotaStore.TeamQuota quota, Submission submission) {
    limits.checkTeamRequests(quota.requests(), submission.specs().size());
    return spending.checkNew(
        submission.ownerId(),
        submission.teamId(),
        submission.specs().stream().map(spec -> spec.target().name()).toList(),
        null,
        null,
        submission.now());
  }

  /**
   * The team's request limit, the chain's, the budgets the hand-off would count against, and the
   * chain's hop budget (the hop is counted here, under the team's quota lock).
   */
  private Mono<Void> handOffLimits(QuotaStore.TeamQuota quota, Submission submission) {
    JobSpec spec = submission.specs().get(0);
    limits.checkTeamRequests(quota.requests(), 1);
    return quotas
        .chain(spec.chainId())
        .flatMap(
            chain -> {
              limits.checkChainRequests(chain.requests());
              return spending
                  .checkNew(
                      spec.ownerId(),
                      spec.teamId(),
                      List.of(spec.target().name()),
                      spec.chainId(),
                      null,
                      submission.now())
                  .then(spending.hop(spec.chainId(), spec.teamId()));
            });
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
