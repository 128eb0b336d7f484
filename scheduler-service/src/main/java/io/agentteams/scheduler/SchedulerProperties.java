package io.agentteams.scheduler;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.scheduler.admission.domain.OwnerWeights;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.Usage;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Everything the scheduler can be told, with the defaults DESIGN.md names.
 *
 * @param jobs sizes and counts every job, chain and team keeps within
 * @param budget the budget ledger: reservations and default budgets
 * @param admission the global bound on active jobs and how the admission loop runs
 * @param dispatch leases, streams, the sweeper and reconciliation
 * @param replicaId this instance's name in the records it writes; generated when blank
 */
@Validated
@ConfigurationProperties("agentteams.scheduler")
public record SchedulerProperties(
    @DefaultValue Jobs jobs,
    @DefaultValue Budget budget,
    @DefaultValue Admission admission,
    @DefaultValue Dispatch dispatch,
    @DefaultValue Runs runs,
    @DefaultValue("") String replicaId) {

  public SchedulerProperties {
    if (replicaId.isBlank()) {
      replicaId = "scheduler-" + UUID.randomUUID().toString().substring(0, 8);
    }
  }

  /**
   * Job limits.
   *
   * @param inputMaxChars request text, characters
   * @param inputMaxBytes request text, UTF-8 bytes
   * @param answerMaxChars a clarification answer, characters
   * @param answerMaxBytes a clarification answer, UTF-8 bytes
   * @param answerJsonMaxBytes an interrupt response, UTF-8 bytes of its JSON
   * @param questionMaxChars a clarification question from an agent, characters
   * @param questionMaxBytes a clarification question from an agent, UTF-8 bytes
   * @param interruptMaxBytes an interrupt payload from an agent, UTF-8 bytes of its JSON
   * @param resultMaxBytes a final answer or error kept with the job, UTF-8 bytes (longer ones are
   *     cut with a truncation notice)
   * @param chainMaxRequests requests (owner requests and hand-offs) one chain accepts
   * @param teamMaxRequests requests one team accepts
   * @param teamMaxReceipts result receipts one team accepts, beside its requests
   * @param idempotencyKeyMaxChars a client's idempotency key, characters
   */
  public record Jobs(
      @DefaultValue("4000") int inputMaxChars,
      @DefaultValue("8000") int inputMaxBytes,
      @DefaultValue("4000") int answerMaxChars,
      @DefaultValue("8000") int answerMaxBytes,
      @DefaultValue("8000") int answerJsonMaxBytes,
      @DefaultValue("4000") int questionMaxChars,
      @DefaultValue("8000") int questionMaxBytes,
      @DefaultValue("8000") int interruptMaxBytes,
      @DefaultValue("6000") int resultMaxBytes,
      @DefaultValue("12") int chainMaxRequests,
      @DefaultValue("100") int teamMaxRequests,
      @DefaultValue("100") int teamMaxReceipts,
      @DefaultValue("200") int idempotencyKeyMaxChars) {

    /** The limits as the domain sees them; impossible values fail at start-up. */
    public JobLimits limits() {
      return new JobLimits(
          new TextBound("job.input", inputMaxChars, inputMaxBytes),
          new TextBound("job.answer", answerMaxChars, answerMaxBytes),
          answerJsonMaxBytes,
          new TextBound("job.question", questionMaxChars, questionMaxBytes),
          interruptMaxBytes,
          resultMaxBytes,
          chainMaxRequests,
          teamMaxRequests,
          teamMaxReceipts,
          new TextBound("job.idempotency-key", idempotencyKeyMaxChars, idempotencyKeyMaxChars * 4));
    }
  }

  /**
   * The budget ledger: what admission reserves for a job before it runs, and the deployment's
   * default budgets, which apply to every chain and owner that sets none of its own (0: none).
   *
   * @param reserveTokens tokens reserved for a job when it is admitted, until it settles
   * @param reserveCost cost (micro-units) reserved for a job when it is admitted
   * @param currency the currency an owner who names none is charged in
   * @param chainTokens default tokens budget of a chain
   * @param chainCostUnits default cost budget of a chain
   * @param ownerTokens default tokens budget of an owner, across all its teams
   * @param ownerCostUnits default cost budget of an owner
   * @param chainMaxHops default hand-off hops budget of a chain
   * @param modelsShown the most models a spend line breaks its spend down by; the rest are summed
   *     under {@code other} (agents name models freely, so a line's breakdown stays bounded)
   * @param trendDays the days (UTC, today included) a spend view's day-by-day trend covers
   */
  public record Budget(
      @DefaultValue("1000") long reserveTokens,
      @DefaultValue("0") long reserveCost,
      @DefaultValue("USD") String currency,
      @DefaultValue("0") long chainTokens,
      @DefaultValue("0") long chainCostUnits,
      @DefaultValue("0") long ownerTokens,
      @DefaultValue("0") long ownerCostUnits,
      @DefaultValue("0") int chainMaxHops,
      @DefaultValue("20") int modelsShown,
      @DefaultValue("14") int trendDays) {

    public Budget {
      if (modelsShown < 1) {
        throw new IllegalArgumentException("budget models-shown is at least 1");
      }
      if (trendDays < 1 || trendDays > 90) {
        throw new IllegalArgumentException("budget trend-days is between 1 and 90");
      }
      if (reserveTokens < 0
          || reserveCost < 0
          || chainTokens < 0
          || chainCostUnits < 0
          || ownerTokens < 0
          || ownerCostUnits < 0
          || chainMaxHops < 0) {
        throw new IllegalArgumentException("budget settings cannot be negative");
      }
    }

    /** What admission reserves for a job. */
    public Usage estimate() {
      return new Usage(reserveTokens, reserveCost);
    }

    /** The budget a scope of this kind has when its owner set none. */
    public io.agentteams.scheduler.budget.domain.Budget defaults(Scope.Kind kind) {
      return switch (kind) {
        case OWNER -> limits(ownerTokens, ownerCostUnits, 0);
        case CHAIN -> limits(chainTokens, chainCostUnits, chainMaxHops);
        default -> io.agentteams.scheduler.budget.domain.Budget.NONE;
      };
    }

    private static io.agentteams.scheduler.budget.domain.Budget limits(
        long tokens, long cost, int hops) {
      return new io.agentteams.scheduler.budget.domain.Budget(
          tokens > 0 ? tokens : null, cost > 0 ? cost : null, null, hops > 0 ? hops : null);
    }
  }

  /**
   * Admission.
   *
   * @param enabled whether this replica runs the admission loop (any number may)
   * @param slots jobs active at once across every replica
   * @param pollInterval how often the loop looks for work when no notification woke it
   * @param maxPerPass the most jobs one pass admits, which bounds a pass's time
   * @param stepTimeout the longest one pass may take before it is abandoned and rolled back
   * @param ownerWeights admission attempts per round for owners that get more than one
   * @param ownerCeiling the most slots one owner may hold at once; 0 (the default) for no ceiling
   * @param metricsInterval how often queue depths and fairness are measured
   * @param fairnessWindow the span of recent admissions the fairness gauge looks at
   */
  public record Admission(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("8") int slots,
      @DefaultValue("1s") Duration pollInterval,
      @DefaultValue("64") int maxPerPass,
      @DefaultValue("5s") Duration stepTimeout,
      @DefaultValue Map<String, Integer> ownerWeights,
      @DefaultValue("0") int ownerCeiling,
      @DefaultValue("10s") Duration metricsInterval,
      @DefaultValue("5m") Duration fairnessWindow) {

    public Admission {
      if (slots < 1) {
        throw new IllegalArgumentException("agentteams.scheduler.admission.slots must be >= 1");
      }
      if (maxPerPass < 1) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.admission.max-per-pass must be >= 1");
      }
      if (ownerCeiling < 0) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.admission.owner-ceiling must be >= 0 (0 for none)");
      }
      ownerWeights = Map.copyOf(ownerWeights);
    }

    public OwnerWeights weights() {
      return new OwnerWeights(ownerWeights);
    }
  }

  /** What happens to a job whose outcome stayed unknown for longer than the time-out. */
  public enum UnknownPolicy {
    /** Mark it failed with a reason that says the outcome is unknown; its slot is released. */
    FAIL,
    /** Keep it unknown, holding its slot, until a worker reports or the owner cancels it. */
    HOLD
  }

  /**
   * Dispatch to agent runtimes.
   *
   * @param leaseTtl how long a lease lasts without a heartbeat, unless the worker asks otherwise
   * @param minLeaseTtl the shortest lease a worker may ask for
   * @param maxLeaseTtl the longest lease a worker may ask for
   * @param memberTokenTtl how long a member token handed out with a job lives
   * @param pollInterval how often a replica looks, for all the worker streams it holds at once, for
   *     jobs the database's signals did not announce
   * @param offersPerClaim jobs one stream claims at a time
   * @param streamHeartbeat how often an idle stream sends a comment to keep the connection open
   * @param sweepInterval how often expired leases and unknown outcomes are looked for
   * @param unknownTimeout how long a job may stay unknown before the policy applies
   * @param unknownPolicy what happens then
   * @param stepTimeout the longest one claim, report or sweep step may take
   * @param offerTimeout schedule-to-start: how long an admitted job may wait for a runtime to take
   *     its offer before it gives its slot back and waits for a worker (keeping its place)
   * @param presenceTtl how long an open stream counts as a connected worker without its replica
   *     renewing it (every third of this); a replica that dies leaves its streams' presence to
   *     lapse after at most this long
   */
  public record Dispatch(
      @DefaultValue("30s") Duration leaseTtl,
      @DefaultValue("1s") Duration minLeaseTtl,
      @DefaultValue("10m") Duration maxLeaseTtl,
      @DefaultValue("15m") Duration memberTokenTtl,
      @DefaultValue("1s") Duration pollInterval,
      @DefaultValue("8") int offersPerClaim,
      @DefaultValue("15s") Duration streamHeartbeat,
      @DefaultValue("1s") Duration sweepInterval,
      @DefaultValue("15m") Duration unknownTimeout,
      @DefaultValue("FAIL") UnknownPolicy unknownPolicy,
      @DefaultValue("5s") Duration stepTimeout,
      @DefaultValue("1m") Duration offerTimeout,
      @DefaultValue("30s") Duration presenceTtl) {

    public Dispatch {
      if (presenceTtl.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.dispatch.presence-ttl must be at least 1s");
      }
      if (offerTimeout.isNegative() || offerTimeout.isZero()) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.dispatch.offer-timeout must be positive");
      }
      if (minLeaseTtl.compareTo(maxLeaseTtl) > 0
          || leaseTtl.compareTo(minLeaseTtl) < 0
          || leaseTtl.compareTo(maxLeaseTtl) > 0) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.dispatch: need min-lease-ttl <= lease-ttl <= max-lease-ttl");
      }
      if (offersPerClaim < 1) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.dispatch.offers-per-claim must be >= 1");
      }
    }
  }

  /**
   * Team runs' bounds and defaults.
   *
   * @param maxTasks the most tasks a plan may have
   * @param defaultMaxRounds rounds of dispatch when the run does not say
   * @param maxRounds the most rounds a run may ask for
   * @param defaultConcurrency tasks dispatched at once when the run does not say (never above the
   *     admission slots)
   * @param objectiveMaxChars the longest objective
   * @param teamMaxUnfinished unfinished runs a team may have at once
   * @param contextStateMaxBytes the most of the team's public state a task's input carries (its
   *     current entries, most recently changed first, UTF-8 bytes)
   * @param contextMessages the most recent messages a task's input carries
   * @param contextMessagesMaxBytes the most bytes of recent messages a task's input carries
   */
  public record Runs(
      @DefaultValue("50") int maxTasks,
      @DefaultValue("10") int defaultMaxRounds,
      @DefaultValue("100") int maxRounds,
      @DefaultValue("4") int defaultConcurrency,
      @DefaultValue("4000") int objectiveMaxChars,
      @DefaultValue("5") int teamMaxUnfinished,
      @DefaultValue("8000") int contextStateMaxBytes,
      @DefaultValue("20") int contextMessages,
      @DefaultValue("8000") int contextMessagesMaxBytes) {

    public Runs {
      if (maxTasks < 1 || defaultMaxRounds < 1 || maxRounds < defaultMaxRounds) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.runs: need max-tasks >= 1 and 1 <= default-max-rounds <="
                + " max-rounds");
      }
      if (defaultConcurrency < 1 || objectiveMaxChars < 1 || teamMaxUnfinished < 1) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.runs: default-concurrency, objective-max-chars and"
                + " team-max-unfinished must be >= 1");
      }
      if (contextStateMaxBytes < 0 || contextMessages < 0 || contextMessagesMaxBytes < 0) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.runs: context-state-max-bytes, context-messages and"
                + " context-messages-max-bytes must be >= 0");
      }
    }
  }
}
