package io.agentteams.scheduler.budget.domain;

import io.agentteams.platform.problem.DomainFailure;

/** The ledger's named failures. */
public final class BudgetProblems {

  private BudgetProblems() {}

  /** A report's model that is not a bounded printable name; names the field. */
  public static DomainFailure invalidModel(int maxLength) {
    return DomainFailure.invalid(
        "invalid-model",
        "usage.model is a printable name of at most "
            + maxLength
            + " characters, without control characters",
        java.util.Map.of("field", "usage.model", "max_length", maxLength));
  }

  /** A budget with a negative limit. */
  public static DomainFailure negative() {
    return DomainFailure.invalid("invalid-budget", "a budget cannot be negative");
  }

  /** A currency that is not three upper-case letters (ISO 4217). */
  public static DomainFailure currency(String currency) {
    return DomainFailure.invalid(
        "invalid-currency",
        "a currency is three upper-case letters, e.g. USD",
        java.util.Map.of("currency", currency));
  }

  /** A wall-time budget longer than the longest the ledger takes. */
  public static DomainFailure wallTooLong(long maxSeconds, long seconds) {
    return DomainFailure.invalid(
        "invalid-budget",
        "a wall-time budget is at most " + maxSeconds + " seconds",
        java.util.Map.of("max_wall_seconds", seconds, "max", maxSeconds));
  }

  /** Work the budget of {@code scope} has no room for. */
  public static BudgetExceeded exceeded(
      Scope scope, String measure, long limit, long spent, long reserved, long needed) {
    return new BudgetExceeded(scope, measure, limit, spent, reserved, needed);
  }
}
