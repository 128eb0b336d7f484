package io.agentteams.scheduler.budget;

import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.budget.domain.Usage;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The budget ledger: what admission reserves for a job before it runs, and the deployment's default
 * budgets, which apply to every chain and owner that sets none of its own (0: none).
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
@Validated
@ConfigurationProperties("agentteams.scheduler.budget")
public record BudgetProperties(
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

  public BudgetProperties {
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
  public Budget defaults(Scope.Kind kind) {
    return switch (kind) {
      case OWNER -> limits(ownerTokens, ownerCostUnits, 0);
      case CHAIN -> limits(chainTokens, chainCostUnits, chainMaxHops);
      default -> Budget.NONE;
    };
  }

  private static Budget limits(long tokens, long cost, int hops) {
    return new Budget(
        tokens > 0 ? tokens : null, cost > 0 ? cost : null, null, hops > 0 ? hops : null);
  }
}
