package io.agentteams.scheduler.budget.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One scope's account: its budget, what settled jobs spent and what admitted jobs hold.
 *
 * @param scope whose account
 * @param budget the limits that apply (explicit or the deployment's defaults)
 * @param spent usage of settled jobs, with its split into input and output tokens (no model)
 * @param reserved what admitted, unsettled jobs hold
 * @param startedAt when the scope's first job was admitted, for a wall-time budget
 */
public record Balance(Scope scope, Budget budget, Usage spent, Usage reserved, Instant startedAt) {

  public Balance {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(spent, "spent");
    Objects.requireNonNull(reserved, "reserved");
    Objects.requireNonNull(startedAt, "started at");
  }

  /** A scope no job has touched yet. */
  public static Balance empty(Scope scope, Budget budget, Instant now) {
    return new Balance(scope, budget, Usage.NONE, Usage.NONE, now);
  }

  /**
   * Whether new work needing {@code need} is refused: a budget with nothing left refuses any new
   * work, one with room refuses work that needs more than the room, and a wall-time budget refuses
   * once its time is up.
   */
  public Optional<BudgetExceeded> refusesNew(Usage need, Instant now) {
    Optional<BudgetExceeded> tokens =
        refuses(
            "tokens", budget.maxTokens(), spent.tokens(), reserved.tokens(), need.tokens(), true);
    if (tokens.isPresent()) {
      return tokens;
    }
    Optional<BudgetExceeded> cost =
        refuses(
            "cost",
            budget.maxCost(),
            spent.costUnits(),
            reserved.costUnits(),
            need.costUnits(),
            true);
    return cost.isPresent() ? cost : wallRefuses(now);
  }

  /**
   * Whether a running job may grow its hold by {@code more}: refused only when it goes past what is
   * left, or the wall time is up.
   */
  public Optional<BudgetExceeded> refusesGrowth(Usage more, Instant now) {
    Optional<BudgetExceeded> tokens =
        refuses(
            "tokens", budget.maxTokens(), spent.tokens(), reserved.tokens(), more.tokens(), false);
    if (tokens.isPresent()) {
      return tokens;
    }
    Optional<BudgetExceeded> cost =
        refuses(
            "cost",
            budget.maxCost(),
            spent.costUnits(),
            reserved.costUnits(),
            more.costUnits(),
            false);
    return cost.isPresent() ? cost : wallRefuses(now);
  }

  /** What is left of the tokens budget, or null with none. */
  public Long remainingTokens() {
    return budget.maxTokens() == null
        ? null
        : Math.max(0, budget.maxTokens() - spent.tokens() - reserved.tokens());
  }

  /** What is left of the cost budget, or null with none. */
  public Long remainingCost() {
    return budget.maxCost() == null
        ? null
        : Math.max(0, budget.maxCost() - spent.costUnits() - reserved.costUnits());
  }

  Balance reserving(Usage more) {
    return new Balance(scope, budget, spent, reserved.plus(more), startedAt);
  }

  Balance settling(Usage hold, Usage used) {
    // What is spent is amounts only: the model of each job is kept in the per-model spend.
    Usage amounts =
        new Usage(used.tokens(), used.costUnits(), used.inputTokens(), used.outputTokens(), null);
    return new Balance(scope, budget, spent.plus(amounts), minus(reserved, hold), startedAt);
  }

  private Optional<BudgetExceeded> refuses(
      String measure, Long limit, long spentSoFar, long held, long need, boolean fresh) {
    if (limit == null) {
      return Optional.empty();
    }
    long remaining = limit - spentSoFar - held;
    boolean refused = need > remaining || (fresh && remaining <= 0);
    return refused
        ? Optional.of(BudgetProblems.exceeded(scope, measure, limit, spentSoFar, held, need))
        : Optional.empty();
  }

  private Optional<BudgetExceeded> wallRefuses(Instant now) {
    Duration wall = budget.maxWall();
    if (wall == null) {
      return Optional.empty();
    }
    long elapsed = Duration.between(startedAt, now).toMillis();
    return elapsed > wall.toMillis()
        ? Optional.of(BudgetProblems.exceeded(scope, "wall-ms", wall.toMillis(), elapsed, 0, 0))
        : Optional.empty();
  }

  private static Usage minus(Usage from, Usage less) {
    // A hold is only ever released from the balance it was reserved on; never below zero.
    return new Usage(
        Math.max(0, from.tokens() - less.tokens()),
        Math.max(0, from.costUnits() - less.costUnits()));
  }
}
