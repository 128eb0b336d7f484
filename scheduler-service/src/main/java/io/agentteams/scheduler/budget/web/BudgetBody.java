package io.agentteams.scheduler.budget.web;

import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.BudgetProblems;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A budget as a request sets it; an absent limit is no limit.
 *
 * @param maxTokens model tokens, input and output together
 * @param maxCost cost in integer micro-units of the owner's currency
 * @param maxWallSeconds seconds from the scope's first admitted job
 * @param maxHops hand-offs in a chain
 */
public record BudgetBody(
    @Nullable Long maxTokens,
    @Nullable Long maxCost,
    @Nullable Long maxWallSeconds,
    @Nullable Integer maxHops) {

  /** The longest wall-time budget: ten years. */
  static final long MAX_WALL_SECONDS = 10L * 365 * 24 * 3600;

  /** The budget it sets. */
  public Budget toBudget() {
    if (maxWallSeconds != null && maxWallSeconds > MAX_WALL_SECONDS) {
      throw BudgetProblems.wallTooLong(MAX_WALL_SECONDS, maxWallSeconds);
    }
    return new Budget(
        maxTokens,
        maxCost,
        maxWallSeconds == null ? null : Duration.ofSeconds(Math.max(-1, maxWallSeconds)),
        maxHops);
  }

  /** The body of a budget. */
  public static BudgetBody of(Budget budget) {
    return new BudgetBody(
        budget.maxTokens(),
        budget.maxCost(),
        budget.maxWall() == null ? null : budget.maxWall().toSeconds(),
        budget.maxHops());
  }
}
