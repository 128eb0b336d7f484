package io.agentteams.scheduler.job.domain;

import io.agentteams.platform.problem.LimitExceededException;
import java.util.Optional;

/**
 * Optional budgets for reported usage; 0 means no budget. New work is refused once a budget it
 * counts against is used up.
 *
 * @param chainTokens tokens per chain
 * @param chainCostUnits cost units per chain
 * @param ownerTokens tokens per owner
 * @param ownerCostUnits cost units per owner
 */
public record BudgetLimits(
    long chainTokens, long chainCostUnits, long ownerTokens, long ownerCostUnits) {

  public static final BudgetLimits NONE = new BudgetLimits(0, 0, 0, 0);

  public BudgetLimits {
    if (chainTokens < 0 || chainCostUnits < 0 || ownerTokens < 0 || ownerCostUnits < 0) {
      throw new IllegalArgumentException("budgets cannot be negative");
    }
  }

  /** Whether any budget is configured at all. */
  public boolean any() {
    return chainTokens > 0 || chainCostUnits > 0 || ownerTokens > 0 || ownerCostUnits > 0;
  }

  /** The first budget that the used amounts exhaust, as the refusal that names it. */
  public Optional<LimitExceededException> exhausted(Usage chain, Usage owner) {
    if (chainTokens > 0 && chain.tokens() >= chainTokens) {
      return Optional.of(
          JobProblems.budgetExhausted(
              "scheduler.budget.chain-tokens", "tokens", chainTokens, chain.tokens()));
    }
    if (chainCostUnits > 0 && chain.costUnits() >= chainCostUnits) {
      return Optional.of(
          JobProblems.budgetExhausted(
              "scheduler.budget.chain-cost-units",
              "cost-units",
              chainCostUnits,
              chain.costUnits()));
    }
    if (ownerTokens > 0 && owner.tokens() >= ownerTokens) {
      return Optional.of(
          JobProblems.budgetExhausted(
              "scheduler.budget.owner-tokens", "tokens", ownerTokens, owner.tokens()));
    }
    if (ownerCostUnits > 0 && owner.costUnits() >= ownerCostUnits) {
      return Optional.of(
          JobProblems.budgetExhausted(
              "scheduler.budget.owner-cost-units",
              "cost-units",
              ownerCostUnits,
              owner.costUnits()));
    }
    return Optional.empty();
  }
}
