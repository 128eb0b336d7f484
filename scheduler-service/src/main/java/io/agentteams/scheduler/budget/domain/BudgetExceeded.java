package io.agentteams.scheduler.budget.domain;

import io.agentteams.platform.problem.DomainFailure;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Work refused or stopped because a budget would be exceeded: it names the budget ({@code
 * run.tokens}, {@code chain.hops}, ...), its scope, the limit, what is spent and reserved and what
 * remains, and what the work needed.
 */
public final class BudgetExceeded extends DomainFailure {

  /** The problem code every budget refusal carries. */
  public static final String CODE = "budget-exceeded";

  private final String budget;

  BudgetExceeded(Scope scope, String measure, long limit, long spent, long reserved, long needed) {
    super(
        Kind.CONFLICT,
        CODE,
        describe(scope, measure, limit, spent, reserved, needed),
        parameters(scope, measure, limit, spent, reserved, needed));
    this.budget = scope.kind().wire() + "." + measure;
  }

  /** The budget's name: the scope's kind and the measure, e.g. {@code team.tokens}. */
  public String budget() {
    return budget;
  }

  private static String describe(
      Scope scope, String measure, long limit, long spent, long reserved, long needed) {
    long remaining = Math.max(0, limit - spent - reserved);
    return "%s.%s budget of %s: limit %d, spent %d, reserved %d, remaining %d, needed %d"
        .formatted(scope.kind().wire(), measure, scope, limit, spent, reserved, remaining, needed);
  }

  private static Map<String, Object> parameters(
      Scope scope, String measure, long limit, long spent, long reserved, long needed) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("budget", scope.kind().wire() + "." + measure);
    p.put("scope", scope.kind().wire());
    p.put("scope_id", scope.id());
    p.put("limit", limit);
    p.put("spent", spent);
    p.put("reserved", reserved);
    p.put("remaining", Math.max(0, limit - spent - reserved));
    p.put("needed", needed);
    return p;
  }
}
