package io.agentteams.scheduler.budget.domain;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The reservation rules over the balances one transaction holds locked: admitting a job reserves
 * its estimate on every scope it counts against, or refuses it naming the first budget without
 * room; a running job's reported usage grows its hold, or stops it when the growth does not fit;
 * settling releases the hold and adds the actual usage.
 *
 * <p>Plain Java over the balances it was given: the caller locks the ledger rows, runs these steps,
 * and writes back {@link #touched()}. Because the rows stay locked from read to write, two
 * replicas' admissions and settlements are serialised on each scope and never reserve past a
 * budget.
 */
public final class Ledger {

  /** A running job's hold after a report, and the budget that stopped it, if one did. */
  public record Growth(Usage hold, Optional<BudgetExceeded> stopped) {}

  /**
   * What settlements added to one scope's spend with one model, to be added to its per-model row.
   */
  public record ModelDelta(Scope scope, ModelSpend spend) {}

  private final Map<Scope, Balance> balances = new TreeMap<>();
  private final Set<Scope> touched = new LinkedHashSet<>();
  private final Map<Scope, Map<String, ModelSpend>> byModel = new TreeMap<>();

  public Ledger(Collection<Balance> locked) {
    locked.forEach(b -> balances.put(b.scope(), b));
  }

  public Balance balance(Scope scope) {
    Balance balance = balances.get(scope);
    if (balance == null) {
      throw new IllegalStateException("scope " + scope + " was not locked");
    }
    return balance;
  }

  /** Reserves {@code estimate} on every scope, or refuses naming the first budget without room. */
  public Optional<BudgetExceeded> reserve(Collection<Scope> scopes, Usage estimate, Instant now) {
    for (Scope scope : sorted(scopes)) {
      Optional<BudgetExceeded> refused = balance(scope).refusesNew(estimate, now);
      if (refused.isPresent()) {
        return refused;
      }
    }
    for (Scope scope : scopes) {
      put(balance(scope).reserving(estimate));
    }
    return Optional.empty();
  }

  /**
   * A running job that holds {@code hold} reports {@code used} so far: its hold grows to cover it.
   * When the growth does not fit a budget, nothing is reserved and the budget is returned: the job
   * is to be stopped and settled.
   */
  public Growth grow(Collection<Scope> scopes, Usage hold, Usage used, Instant now) {
    Usage grown = max(hold, used);
    Usage more = new Usage(grown.tokens() - hold.tokens(), grown.costUnits() - hold.costUnits());
    for (Scope scope : sorted(scopes)) {
      Optional<BudgetExceeded> refused = balance(scope).refusesGrowth(more, now);
      if (refused.isPresent()) {
        return new Growth(hold, refused);
      }
    }
    if (more.tokens() > 0 || more.costUnits() > 0) {
      for (Scope scope : scopes) {
        put(balance(scope).reserving(more));
      }
    }
    return new Growth(grown, Optional.empty());
  }

  /**
   * A job that held {@code hold} ended having used {@code used}: release the one, add the other.
   */
  public void settle(Collection<Scope> scopes, Usage hold, Usage used) {
    settle(scopes, scopes, hold, used);
  }

  /**
   * A job ended having used {@code used}: it is spent on every scope it counts against, and its
   * {@code hold} released from the scopes it was reserved on (those with a budget at admission).
   * Each scope's spend with the job's model grows by the same amount, so a scope's per-model spend
   * always adds up to its total.
   */
  public void settle(Collection<Scope> spentOn, Collection<Scope> heldOn, Usage hold, Usage used) {
    ModelSpend job = ModelSpend.of(used);
    for (Scope scope : spentOn) {
      put(balance(scope).settling(heldOn.contains(scope) ? hold : Usage.NONE, used));
      byModel
          .computeIfAbsent(scope, s -> new TreeMap<>())
          .merge(job.model(), job, ModelSpend::plus);
    }
  }

  /** What settlements added per scope and model, to be added to the per-model rows. */
  public List<ModelDelta> settledByModel() {
    return byModel.entrySet().stream()
        .flatMap(e -> e.getValue().values().stream().map(m -> new ModelDelta(e.getKey(), m)))
        .toList();
  }

  /** The balances these steps changed, to be written back. */
  public List<Balance> touched() {
    return touched.stream().map(balances::get).toList();
  }

  private void put(Balance balance) {
    balances.put(balance.scope(), balance);
    touched.add(balance.scope());
  }

  private static List<Scope> sorted(Collection<Scope> scopes) {
    return scopes.stream().sorted().toList();
  }

  /** The larger of each measure: a report carries the job's usage so far, never an increment. */
  public static Usage max(Usage a, Usage b) {
    return new Usage(Math.max(a.tokens(), b.tokens()), Math.max(a.costUnits(), b.costUnits()));
  }
}
