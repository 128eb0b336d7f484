package io.agentteams.scheduler.budget.domain;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The limits set on one scope; a null limit is no limit of that measure.
 *
 * @param maxTokens model tokens, input and output together
 * @param maxCost cost in integer micro-units of the owner's currency
 * @param maxWall time from the scope's first job (a run's or a chain's start)
 * @param maxHops hand-offs in a chain
 */
public record Budget(
    @Nullable Long maxTokens,
    @Nullable Long maxCost,
    @Nullable Duration maxWall,
    @Nullable Integer maxHops) {

  /** No limit at all. */
  public static final Budget NONE = new Budget(null, null, null, null);

  public Budget {
    if ((maxTokens != null && maxTokens < 0)
        || (maxCost != null && maxCost < 0)
        || (maxHops != null && maxHops < 0)
        || (maxWall != null && maxWall.isNegative())) {
      throw BudgetProblems.negative();
    }
  }

  /** Whether any limit is set. */
  public boolean any() {
    return maxTokens != null || maxCost != null || maxWall != null || maxHops != null;
  }

  /** This budget, with the other's limit wherever this one sets none. */
  public Budget orElse(Budget other) {
    return new Budget(
        maxTokens != null ? maxTokens : other.maxTokens,
        maxCost != null ? maxCost : other.maxCost,
        maxWall != null ? maxWall : other.maxWall,
        maxHops != null ? maxHops : other.maxHops);
  }
}
