package io.agentteams.scheduler.job.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.Rosters;
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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
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

  /** What a submission produced; {@code replayed} when an earlier one with the key did. */
  public record Submitted(List<Job> jobs, boolean replayed) {}

  private final Rosters rosters;
  private final JobStore jobs;
  private final QuotaStore quotas;
  private final JobEvents events;
  private final TransactionalOperator transactions;
  private final JobLimits limits;
  private final BudgetLimits budgets;
  private final Clock clock;

  public JobRequests(
      Rosters rosters,
      JobStore jobs,
      QuotaStore quotas,
      JobEvents events,
      TransactionalOperator transactions,
      SchedulerProperties properties,
      Clock clock) {
    this.rosters = rosters;
    this.jobs = jobs;
    this.quotas = quotas;
    this.events = events;
    this.transactions = transactions;
    this.limits = properties.jobs().limits();
    this.budgets = properties.budget().limits();
    this.clock = clock;
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
    return roster(owner, teamId)
        .flatMap(
            roster -> {
              List<MemberRef> targets = targets(roster, recipients);
              String fingerprint =
                  RequestFingerprint.of(JobSpec.OWNER, names(targets), input, null);
              Instant now = clock.instant();
              return transactions.transactional(
                  quotas
                      .lockTeam(teamId, roster.ownerId())
                      .flatMap(
                          quota ->
                              replay(teamId, JobSpec.OWNER, idempotencyKey, fingerprint)
                                  .switchIfEmpty(
                                      Mono.defer(
                                          () -> {
                                            limits.checkTeamRequests(
                                                quota.requests(), targets.size());
                                            return checkOwnerBudget(roster.ownerId())
                                                .then(
                                                    create(
                                                        teamId,
                                                        JobSpec.OWNER,
                                                        idempotencyKey,
                                                        fingerprint,
                                                        targets.stream()
                                                            .map(
                                                                target -> {
                                                                  UUID id = UUID.randomUUID();
                                                                  return JobSpec.ownerRequest(
                                                                      id,
                                                                      teamId,
                                                                      roster.ownerId(),
                                                                      target,
                                                                      input,
                                                                      idempotencyKey,
                                                                      now);
                                                                })
                                                            .toList(),
                                                        now));
                                          }))));
            });
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
    if (!member.teamId().equals(teamId)) {
      return Mono.error(JobProblems.otherTeam());
    }
    if (recipients.size() != 1) {
      return Mono.error(JobProblems.oneRecipient());
    }
    String input = limits.input().checkNotBlank(text);
    String idempotencyKey = checkKey(key);
    return roster(member, teamId)
        .flatMap(
            roster -> {
              Roster.Member self =
                  roster
                      .member(member.member())
                      .orElseThrow(() -> JobProblems.notAMember(member.member(), teamId));
              MemberRef from = new MemberRef(self.name(), self.agentId(), self.conversationId());
              MemberRef target = targets(roster, recipients).get(0);
              if (target.name().equals(from.name())) {
                throw JobProblems.handoffToSelf();
              }
              return executing(member)
                  .map(Optional::of)
                  .defaultIfEmpty(Optional.empty())
                  .flatMap(
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
                                roster.ownerId(),
                                target,
                                from,
                                executing.orElse(null),
                                input,
                                idempotencyKey,
                                now);
                        return transactions.transactional(
                            quotas
                                .lockTeam(teamId, roster.ownerId())
                                .flatMap(
                                    quota ->
                                        replay(teamId, scope, idempotencyKey, fingerprint)
                                            .switchIfEmpty(
                                                checkHandoffLimits(quota, spec)
                                                    .then(
                                                        create(
                                                            teamId,
                                                            scope,
                                                            idempotencyKey,
                                                            fingerprint,
                                                            List.of(spec),
                                                            now)))));
                      });
            });
  }

  /** The team's request limit, the chain's, and the chain's and owner's budgets. */
  private Mono<Void> checkHandoffLimits(QuotaStore.TeamQuota quota, JobSpec spec) {
    return Mono.defer(
        () -> {
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
  private Mono<Submitted> replay(UUID teamId, String scope, String key, String fingerprint) {
    return quotas
        .requestKey(teamId, scope, key)
        .flatMap(
            earlier -> {
              if (!earlier.equals(fingerprint)) {
                return Mono.error(JobProblems.idempotencyKeyReused(key));
              }
              return jobs.findByKey(teamId, scope, key)
                  .collectList()
                  .map(found -> new Submitted(found, true));
            });
  }

  private Mono<Submitted> create(
      UUID teamId, String scope, String key, String fingerprint, List<JobSpec> specs, Instant now) {
    return Flux.fromIterable(specs)
        .concatMap(
            spec ->
                jobs.nextQueuePosition()
                    .map(position -> Job.create(spec, position))
                    .flatMap(
                        job ->
                            jobs.insert(job)
                                .then(quotas.addChainRequest(spec.chainId(), teamId))
                                .then(events.created(job))
                                .thenReturn(job)))
        .collectList()
        .flatMap(
            created ->
                quotas
                    .addToTeam(teamId, created.size(), 0)
                    .then(quotas.insertRequestKey(teamId, scope, key, fingerprint, now))
                    .thenReturn(new Submitted(created, false)));
  }

  /** The job a member token was minted for, which must be that member's job in that team. */
  private Mono<Job> executing(Caller.Member member) {
    UUID jobId = member.jobId();
    if (jobId == null) {
      return Mono.empty();
    }
    return jobs.find(jobId)
        .filter(
            job ->
                job.spec().teamId().equals(member.teamId())
                    && job.spec().target().name().equals(member.member()))
        .switchIfEmpty(Mono.error(() -> JobProblems.notYourJob(jobId, member.member())));
  }

  /** The team's roster when the caller's owner owns it; otherwise not found. */
  private Mono<Roster> roster(Caller caller, UUID teamId) {
    return rosters
        .find(teamId)
        .filter(roster -> roster.ownedBy(caller.ownerId()))
        .switchIfEmpty(Mono.error(() -> DomainFailure.notFound("team", teamId)))
        .map(
            roster -> {
              if ("deleted".equals(roster.status()) || "failed".equals(roster.status())) {
                throw JobProblems.teamNotActive(teamId, roster.status());
              }
              return roster;
            });
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
