package io.agentteams.scheduler.run.application;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.scheduler.admission.AdmissionProperties;
import io.agentteams.scheduler.budget.application.Spending;
import io.agentteams.scheduler.budget.domain.Balance;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.ModelSpend;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.job.persistence.QuotaStore;
import io.agentteams.scheduler.run.RunProperties;
import io.agentteams.scheduler.run.domain.Run;
import io.agentteams.scheduler.run.domain.RunEntry;
import io.agentteams.scheduler.run.domain.RunOptions;
import io.agentteams.scheduler.run.domain.RunProblems;
import io.agentteams.scheduler.run.persistence.RunStore;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * What an owner does with team runs: start one on an objective, read it, approve or reject its
 * plan, cancel it, export its whole record. Each change happens under the run's row lock, in one
 * transaction with the jobs it creates or cancels and the timeline it announces.
 */
@Service
public class RunCommands {

  /**
   * A run to start; what it leaves out takes the defaults.
   *
   * @param objective what the team is asked to achieve
   * @param planner the member asked for the plan (default: the lead)
   * @param synthesiser the member asked for the result (default: the planner)
   * @param maxRounds rounds of dispatch
   * @param concurrency tasks dispatched at once in a round
   * @param continueOnMemberError whether a failed task lets the run go on
   * @param requirePlanApproval whether the plan waits for the owner's approval
   * @param onUnreadablePlan {@code fail} (default) or {@code fallback}
   * @param idempotencyKey makes retries safe: the same key returns the same run
   * @param budget the run's budget ({@link Budget#NONE} for none)
   */
  public record NewRun(
      @Nullable String objective,
      @Nullable String planner,
      @Nullable String synthesiser,
      @Nullable Integer maxRounds,
      @Nullable Integer concurrency,
      @Nullable Boolean continueOnMemberError,
      @Nullable Boolean requirePlanApproval,
      @Nullable String onUnreadablePlan,
      @Nullable String idempotencyKey,
      Budget budget) {}

  /** A started run; {@code replayed} when an earlier request with the key started it. */
  public record Started(Run run, boolean replayed) {}

  /**
   * A run's whole record: the run, its timeline, every job it created and what it spent, in all and
   * per model.
   */
  public record Record(
      Run run,
      List<RunEntry> timeline,
      List<RunJobRecord> jobs,
      Balance spend,
      List<ModelSpend> spendByModel) {}

  /** One of a run's jobs, with what it was for. */
  public record RunJobRecord(RunStore.RunJob role, Job job) {}

  /** The team's owner starts runs while the team is neither failed nor deleted. */
  static final AccessPolicy STARTING =
      AccessPolicy.admitting(AccessPolicy.CallerKind.OWNER)
          .keepingDeletedTeams()
          .activeIn(
              EnumSet.complementOf(EnumSet.of(TeamStatus.DELETED, TeamStatus.FAILED)),
              RunProblems::teamNotActive);

  /** The team's owner reads and steers its runs, also once the team is deleted. */
  static final AccessPolicy STEERING =
      AccessPolicy.admitting(AccessPolicy.CallerKind.OWNER).keepingDeletedTeams();

  private final RosterAccess access;
  private final RunStore runs;
  private final JobStore jobs;
  private final QuotaStore quotas;
  private final RunSteps steps;
  private final Spending spending;
  private final TransactionalOperator transactions;
  private final RunProperties limits;
  private final int slots;
  private final TextBound objectiveBound;
  private final TextBound reasonBound;
  private final TextBound keyBound;
  private final Clock clock;

  RunCommands(
      RosterAccess access,
      RunStore runs,
      JobStore jobs,
      QuotaStore quotas,
      RunSteps steps,
      Spending spending,
      TransactionalOperator transactions,
      RunProperties properties,
      AdmissionProperties admission,
      Clock clock) {
    this.access = access;
    this.runs = runs;
    this.jobs = jobs;
    this.quotas = quotas;
    this.steps = steps;
    this.spending = spending;
    this.transactions = transactions;
    this.limits = properties;
    this.slots = admission.slots();
    this.objectiveBound =
        new TextBound("run.objective", limits.objectiveMaxChars(), limits.objectiveMaxChars() * 4);
    this.reasonBound = new TextBound("run.reason", 1000, 4000);
    this.keyBound = new TextBound("run.idempotency-key", 200, 800);
    this.clock = clock;
  }

  /** Starts a run: it is planning, and its planner's job is queued. */
  public Mono<Started> start(Caller.Owner owner, UUID teamId, NewRun request) {
    String objective = withoutNul("objective", objectiveBound.checkNotBlank(request.objective()));
    String key =
        request.idempotencyKey() == null
            ? null
            : withoutNul("idempotency_key", keyBound.checkNotBlank(request.idempotencyKey()));
    return roster(owner, teamId, STARTING)
        .flatMap(
            roster -> {
              RunOptions options = options(roster, request);
              Instant now = clock.instant();
              return transactions.transactional(
                  quotas
                      .lockTeam(teamId, roster.ownerId())
                      .then(key == null ? Mono.<Run>empty() : runs.findByKey(teamId, key))
                      .map(
                          earlier -> {
                            if (!earlier.objective().equals(objective)) {
                              throw RunProblems.keyReused(Objects.requireNonNull(key));
                            }
                            return new Started(earlier, true);
                          })
                      .switchIfEmpty(
                          Mono.defer(
                              () ->
                                  runs.countUnfinished(teamId)
                                      .flatMap(
                                          unfinished -> {
                                            if (unfinished >= limits.teamMaxUnfinished()) {
                                              throw RunProblems.tooManyActive(
                                                  unfinished.intValue(),
                                                  limits.teamMaxUnfinished());
                                            }
                                            Run run =
                                                Run.start(
                                                    UUID.randomUUID(),
                                                    teamId,
                                                    roster.ownerId(),
                                                    objective,
                                                    options,
                                                    now);
                                            return spending
                                                .checkNew(
                                                    roster.ownerId(),
                                                    teamId,
                                                    List.of(options.planner()),
                                                    null,
                                                    null,
                                                    now)
                                                .then(runs.insert(run, key))
                                                .then(
                                                    spending.budgetRun(
                                                        run.id(),
                                                        roster.ownerId(),
                                                        request.budget(),
                                                        now))
                                                .then(
                                                    steps.finish(
                                                        run,
                                                        List.of(run.plannerOrder(members(roster))),
                                                        roster,
                                                        now))
                                                .map(started -> new Started(started, false));
                                          }))));
            });
  }

  /** The owner's run in that team. */
  public Mono<Run> find(Caller.Owner owner, UUID teamId, UUID runId) {
    return roster(owner, teamId, STEERING)
        .then(runs.find(runId))
        .filter(run -> run.teamId().equals(teamId))
        .switchIfEmpty(Mono.error(() -> RunProblems.notFound(runId)));
  }

  /** The team's runs, newest first. */
  public Mono<List<Run>> list(Caller.Owner owner, UUID teamId, int limit) {
    return roster(owner, teamId, STEERING).then(runs.findByTeam(teamId, limit).collectList());
  }

  /** Approves the plan: the first round is dispatched. */
  public Mono<Run> approve(Caller.Owner owner, UUID teamId, UUID runId) {
    return change(owner, teamId, runId, (run, roster, now) -> run.approve(members(roster), now));
  }

  /** Rejects the plan: the run fails with the owner's reason. */
  public Mono<Run> reject(Caller.Owner owner, UUID teamId, UUID runId, @Nullable String reason) {
    if (reason == null || reason.isBlank()) {
      return Mono.error(RunProblems.reasonRequired());
    }
    String why = withoutNul("reason", reasonBound.checkNotBlank(reason));
    return change(
        owner,
        teamId,
        runId,
        (run, roster, now) -> {
          run.reject(why, now);
          return List.of();
        });
  }

  /** Cancels the run and its unfinished jobs. */
  public Mono<Run> cancel(Caller.Owner owner, UUID teamId, UUID runId) {
    return change(
        owner,
        teamId,
        runId,
        (run, roster, now) -> {
          run.cancel(now);
          return List.of();
        });
  }

  /** The run's whole record, for audit. */
  public Mono<Record> export(Caller.Owner owner, UUID teamId, UUID runId) {
    return find(owner, teamId, runId)
        .flatMap(
            run ->
                runs.timeline(runId)
                    .collectList()
                    .flatMap(
                        timeline ->
                            runs.jobs(runId)
                                .concatMap(
                                    role ->
                                        jobs.find(role.jobId())
                                            .map(job -> new RunJobRecord(role, job)))
                                .collectList()
                                .zipWith(spending.balance(Scope.run(runId), clock.instant()))
                                .zipWith(spending.byModel(Scope.run(runId)))
                                .map(
                                    found ->
                                        new Record(
                                            run,
                                            timeline,
                                            found.getT1().getT1(),
                                            found.getT1().getT2(),
                                            found.getT2()))));
  }

  /** A change of the run's state by its owner. */
  @FunctionalInterface
  private interface Change {
    List<io.agentteams.scheduler.run.domain.JobOrder> apply(Run run, Roster roster, Instant now);
  }

  private Mono<Run> change(Caller.Owner owner, UUID teamId, UUID runId, Change change) {
    return roster(owner, teamId, STEERING)
        .flatMap(
            roster ->
                transactions.transactional(
                    runs.lock(runId)
                        .filter(run -> run.teamId().equals(teamId))
                        .switchIfEmpty(Mono.error(() -> RunProblems.notFound(runId)))
                        .flatMap(
                            run -> {
                              Instant now = clock.instant();
                              return steps.finish(run, change.apply(run, roster, now), roster, now);
                            })));
  }

  private RunOptions options(Roster roster, NewRun request) {
    String planner =
        request.planner() != null
            ? member(roster, "planner", request.planner())
            : roster.lead().map(Roster.Member::name).orElseThrow(RunProblems::noLead);
    String synthesiser =
        request.synthesiser() != null
            ? member(roster, "synthesiser", request.synthesiser())
            : planner;
    int maxRounds =
        bounded("max_rounds", request.maxRounds(), limits.defaultMaxRounds(), limits.maxRounds());
    int concurrency =
        bounded(
            "concurrency",
            request.concurrency(),
            Math.min(limits.defaultConcurrency(), slots),
            slots);
    RunOptions.UnreadablePlan onUnreadable;
    try {
      onUnreadable =
          request.onUnreadablePlan() == null
              ? RunOptions.UnreadablePlan.FAIL
              : RunOptions.UnreadablePlan.fromWire(request.onUnreadablePlan());
    } catch (IllegalArgumentException e) {
      throw RunProblems.unknownPolicy(String.valueOf(request.onUnreadablePlan()));
    }
    return new RunOptions(
        planner,
        synthesiser,
        maxRounds,
        concurrency,
        Boolean.TRUE.equals(request.continueOnMemberError()),
        Boolean.TRUE.equals(request.requirePlanApproval()),
        onUnreadable);
  }

  private static String member(Roster roster, String option, String name) {
    return roster
        .member(name)
        .map(Roster.Member::name)
        .orElseThrow(() -> RunProblems.unknownMember(option, name));
  }

  private static int bounded(String option, @Nullable Integer value, int fallback, int max) {
    if (value == null) {
      return fallback;
    }
    if (value < 1 || value > max) {
      throw RunProblems.outOfRange(option, value, 1, max);
    }
    return value;
  }

  static List<String> members(Roster roster) {
    return roster.members().stream().map(Roster.Member::name).toList();
  }

  /** The team's roster when the policy grants the owner access; otherwise its refusal. */
  private Mono<Roster> roster(Caller.Owner owner, UUID teamId, AccessPolicy policy) {
    return access.check(owner, teamId, policy).map(Grant::team);
  }

  private static String withoutNul(String field, String value) {
    if (value.indexOf('\u0000') >= 0) {
      throw RunProblems.nulCharacter(field);
    }
    return value;
  }
}
