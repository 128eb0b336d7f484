package io.agentteams.scheduler.budget.application;

import io.agentteams.scheduler.budget.BudgetProperties;
import io.agentteams.scheduler.budget.domain.Balance;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.BudgetExceeded;
import io.agentteams.scheduler.budget.domain.BudgetProblems;
import io.agentteams.scheduler.budget.domain.Ledger;
import io.agentteams.scheduler.budget.domain.ModelSpend;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.budget.domain.Spender;
import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.budget.persistence.BudgetStore;
import io.agentteams.scheduler.budget.persistence.LedgerStore;
import io.agentteams.scheduler.budget.persistence.LedgerStore.Holder;
import io.agentteams.scheduler.budget.persistence.LedgerStore.JobAccount;
import io.agentteams.scheduler.budget.persistence.SpendStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The ledger's steps, each inside the caller's transaction: an admission pass reserves each job's
 * estimate on every scope it counts against (owner, team, member, run, chain) or refuses it naming
 * the budget; a running job's report grows its hold or stops it; a finished job settles. New work
 * is checked against the budgets before it is accepted, so a request the budget has no room for is
 * refused at once with the budget named.
 */
@Service
public class Spending {

  /**
   * What a pass's reservations came to.
   *
   * @param refused jobs a budget has no room for
   * @param busy jobs whose balances another transaction holds; they wait for the next pass
   * @param holding jobs the pass reserved for, with the scopes each holds on: each now holds {@code
   *     hold}, which the caller records with the job's admission, in the same transaction
   * @param hold what each of {@code holding} reserved: the configured estimate
   */
  public record Reservations(
      Map<UUID, BudgetExceeded> refused,
      Set<UUID> busy,
      Map<UUID, List<Scope>> holding,
      Usage hold) {}

  private final LedgerStore store;
  private final BudgetStore budgets;
  private final SpendStore spend;
  private final BudgetProperties settings;
  private final Counter spentTokens;
  private final Counter spentCost;
  private final Counter stops;

  public Spending(
      LedgerStore store,
      BudgetStore budgets,
      SpendStore spend,
      BudgetProperties properties,
      MeterRegistry meters) {
    this.store = store;
    this.budgets = budgets;
    this.spend = spend;
    this.settings = properties;
    this.spentTokens =
        Counter.builder("agentteams.scheduler.spend.tokens")
            .description("Tokens settled into the ledger")
            .register(meters);
    this.spentCost =
        Counter.builder("agentteams.scheduler.spend.cost")
            .description("Cost settled into the ledger, in micro-units of the owners' currencies")
            .register(meters);
    this.stops =
        Counter.builder("agentteams.scheduler.budget.stops")
            .description("Jobs a budget refused at admission or stopped while running")
            .register(meters);
  }

  /**
   * Reserves the estimate of every job an admission pass is about to admit on the scopes it counts
   * against that have a budget (set, or the deployment's default), under row locks it takes without
   * waiting; scopes without a budget need no reservation and are only charged when the job settles.
   * A job that already holds (a resumed conversation) and a receipt (it returns an answer already
   * paid for) reserve nothing more. The ledger's balances are written here; the hold of each job
   * reserved for is returned for the caller to write with the job's admission (one statement for
   * both).
   *
   * @param accounts what the ledger knows of each job, read as the pass locked the job's row
   */
  public Mono<Reservations> reserve(
      List<Spender> jobs, Map<UUID, JobAccount> accounts, Instant now) {
    Map<UUID, List<Scope>> scopesOf = new LinkedHashMap<>();
    Map<Scope, Holder> holders = new LinkedHashMap<>();
    for (Spender job : jobs) {
      JobAccount account = accounts.get(job.jobId());
      boolean holds = account != null && !account.hold().none();
      if (!holds && !job.receipt()) {
        List<Scope> scopes = job.scopes(account == null ? null : account.runId());
        scopesOf.put(job.jobId(), scopes);
        scopes.forEach(s -> holders.putIfAbsent(s, holder(job)));
      }
    }
    if (holders.isEmpty()) {
      return Mono.just(new Reservations(Map.of(), Set.of(), Map.of(), settings.estimate()));
    }
    return store
        .lockBudgeted(holders, settings::defaults, now)
        .flatMap(found -> reserveLocked(jobs, scopesOf, found, now));
  }

  private Mono<Reservations> reserveLocked(
      List<Spender> jobs,
      Map<UUID, List<Scope>> scopesOf,
      LedgerStore.Budgeted found,
      Instant now) {
    Ledger ledger = new Ledger(found.locked().values());
    Map<UUID, BudgetExceeded> refused = new LinkedHashMap<>();
    Set<UUID> busy = new HashSet<>();
    Map<UUID, List<Scope>> holding = new LinkedHashMap<>();
    for (Spender job : jobs) {
      List<Scope> scopes = scopesOf.get(job.jobId());
      if (scopes == null) {
        continue;
      }
      List<Scope> budgeted = scopes.stream().filter(found.budgeted()::contains).toList();
      if (budgeted.isEmpty()) {
        continue;
      }
      if (!found.locked().keySet().containsAll(budgeted)) {
        busy.add(job.jobId());
        continue;
      }
      Optional<BudgetExceeded> refusal = ledger.reserve(budgeted, settings.estimate(), now);
      if (refusal.isPresent()) {
        refused.put(job.jobId(), refusal.get());
      } else {
        holding.put(job.jobId(), budgeted);
      }
    }
    stops.increment(refused.size());
    return store
        .write(ledger.touched(), now)
        .then(
            Flux.fromIterable(refused.entrySet())
                .concatMap(e -> store.stopped(e.getKey(), e.getValue().budget()))
                .then())
        .thenReturn(new Reservations(refused, busy, holding, settings.estimate()));
  }

  /**
   * A running job reported more usage than before: its hold grows to cover it, or, when a budget
   * has no room for the growth, the budget is returned and the caller stops the job (it then
   * settles like any finished job). Waits for the balances' locks, taken in scope order.
   *
   * <p>A budget set (or lowered) while the job runs applies from this report: a scope the job
   * counts against that has a budget now but held nothing of the job's at admission first takes the
   * job's hold (as admission would have reserved it), then the growth; either not fitting stops the
   * job. Fail closed: a job never runs on past a budget because it was admitted before it.
   */
  public Mono<Optional<BudgetExceeded>> reported(Spender job, Instant now) {
    return store
        .accounts(List.of(job.jobId()))
        .flatMap(
            accounts -> {
              JobAccount account = accounts.get(job.jobId());
              if (account == null || account.settled()) {
                return Mono.just(Optional.<BudgetExceeded>empty());
              }
              List<Scope> all = job.scopes(account.runId());
              return store
                  .budgeted(all)
                  .flatMap(
                      set -> {
                        List<Scope> joining =
                            all.stream()
                                .filter(s -> set.contains(s) || settings.defaults(s.kind()).any())
                                .filter(s -> !account.heldOn().contains(s))
                                .toList();
                        List<Scope> holding = new ArrayList<>(account.heldOn());
                        holding.addAll(joining);
                        if (holding.isEmpty()) {
                          // No scope has a budget: nothing to grow against.
                          return Mono.just(Optional.<BudgetExceeded>empty());
                        }
                        return lockAll(job, holding, now)
                            .flatMap(locked -> grow(job, account, joining, holding, locked, now));
                      });
            });
  }

  private Mono<Optional<BudgetExceeded>> grow(
      Spender job,
      JobAccount account,
      List<Scope> joining,
      List<Scope> holding,
      Map<Scope, Balance> locked,
      Instant now) {
    Ledger ledger = new Ledger(locked.values());
    Optional<BudgetExceeded> stopped = Optional.empty();
    if (!joining.isEmpty()) {
      stopped = ledger.grow(joining, Usage.NONE, account.hold(), now).stopped();
    }
    Ledger.Growth growth = null;
    if (stopped.isEmpty()) {
      growth = ledger.grow(holding, account.hold(), job.usage(), now);
      stopped = growth.stopped();
    }
    if (stopped.isPresent()) {
      // Nothing of this report is written: the job is stopped and settles from its old hold.
      stops.increment();
      return store.stopped(job.jobId(), stopped.get().budget()).thenReturn(stopped);
    }
    Usage hold = growth.hold();
    return store
        .write(ledger.touched(), now)
        .then(
            joining.isEmpty()
                ? store.hold(job.jobId(), hold, false)
                : store.holdAll(Map.of(job.jobId(), holding), hold))
        .thenReturn(Optional.<BudgetExceeded>empty());
  }

  /**
   * A job ended: its hold is released and its usage added to every scope it counts against, once,
   * and to each scope's spend with the job's model, in the same transaction. A job that was never
   * admitted and used nothing has nothing to settle.
   */
  public Mono<Void> settle(Spender job, Instant now) {
    if (job.admissions() == 0 && job.usage().none()) {
      return Mono.empty();
    }
    return store
        .accounts(List.of(job.jobId()))
        .flatMap(
            accounts -> {
              JobAccount account = accounts.get(job.jobId());
              if (account == null || account.settled()) {
                return Mono.empty();
              }
              List<Scope> scopes = job.scopes(account.runId());
              return lockAll(job, scopes, now)
                  .flatMap(
                      locked -> {
                        Ledger ledger = new Ledger(locked.values());
                        ledger.settle(scopes, account.heldOn(), account.hold(), job.usage());
                        spentTokens.increment(job.usage().tokens());
                        spentCost.increment(job.usage().costUnits());
                        return store
                            .write(ledger.touched(), now)
                            .then(
                                store.addByModel(
                                    // A receipt returns an answer already paid for: it is no
                                    // model's job unless it reported usage of its own.
                                    job.receipt() && job.usage().none()
                                        ? List.of()
                                        : ledger.settledByModel()))
                            .then(store.hold(job.jobId(), Usage.NONE, true));
                      });
            });
  }

  /**
   * Refuses new work for {@code members} of a team (and, for a hand-off, in a chain) when a budget
   * it would count against has no room for its estimate. Admission decides for good under its
   * locks; this answers the request at once instead of accepting work that cannot run.
   */
  public Mono<Void> checkNew(
      String ownerId,
      UUID teamId,
      Collection<String> members,
      @Nullable UUID chainId,
      @Nullable UUID runId,
      Instant now) {
    List<Scope> scopes = new ArrayList<>();
    scopes.add(Scope.owner(ownerId));
    scopes.add(Scope.team(teamId));
    members.forEach(m -> scopes.add(Scope.member(teamId, m)));
    if (chainId != null) {
      scopes.add(Scope.chain(chainId));
    }
    if (runId != null) {
      scopes.add(Scope.run(runId));
    }
    return store
        .read(scopes, settings::defaults, now)
        .flatMap(
            balances -> {
              for (Scope scope : scopes.stream().sorted().toList()) {
                Balance balance = balances.get(scope);
                Optional<BudgetExceeded> refused =
                    balance == null
                        ? Optional.empty()
                        : balance.refusesNew(settings.estimate(), now);
                if (refused.isPresent()) {
                  return Mono.error(refused.get());
                }
              }
              return Mono.empty();
            });
  }

  /**
   * Refuses one more hand-off in a chain whose hop budget is used up, else counts it. Call it under
   * the team's quota lock, which serialises the chain's hand-offs.
   */
  public Mono<Void> hop(UUID chainId, UUID teamId) {
    Scope chain = Scope.chain(chainId);
    return budgets
        .budget(chain)
        .map(row -> row.budget().orElse(settings.defaults(Scope.Kind.CHAIN)))
        .zipWith(budgets.chainHops(chainId))
        .flatMap(
            found -> {
              Budget budget = found.getT1();
              int hops = found.getT2();
              if (budget.maxHops() != null && hops + 1 > budget.maxHops()) {
                stops.increment();
                return Mono.error(
                    BudgetProblems.exceeded(chain, "hops", budget.maxHops(), hops, 0, 1));
              }
              return budgets.addHop(chainId, teamId);
            });
  }

  /** A scope's balance as it stands, with its budget. */
  public Mono<Balance> balance(Scope scope, Instant now) {
    return store.read(List.of(scope), settings::defaults, now).map(found -> found.get(scope));
  }

  /** A scope's spend per model, most tokens first (bounded, the rest summed as {@code other}). */
  public Mono<List<ModelSpend>> byModel(Scope scope) {
    return spend
        .byModel(List.of(scope), settings.modelsShown())
        .map(found -> found.getOrDefault(scope, List.of()));
  }

  /** Sets the budget of a run as it starts. */
  public Mono<Void> budgetRun(UUID runId, String ownerId, Budget budget, Instant now) {
    return budget.any()
        ? budgets.setBudget(Scope.run(runId), ownerId, budget, null, now)
        : Mono.empty();
  }

  /** Sets the budget of a chain a request starts. */
  public Mono<Void> budgetChain(UUID chainId, String ownerId, Budget budget, Instant now) {
    return budget.any()
        ? budgets.setBudget(Scope.chain(chainId), ownerId, budget, null, now)
        : Mono.empty();
  }

  /**
   * Locks a job's balances, waiting for them: first the team's outbox key (the order every lock of
   * a job transition and an admission pass follows: job, team key, ledger rows), then the rows in
   * scope order.
   */
  private Mono<Map<Scope, Balance>> lockAll(Spender job, List<Scope> scopes, Instant now) {
    Map<Scope, Holder> holders = new LinkedHashMap<>();
    scopes.forEach(s -> holders.put(s, holder(job)));
    return store.lockTeamKey(job.teamId()).then(store.lock(holders, settings::defaults, now));
  }

  private static Holder holder(Spender job) {
    return new Holder(job.ownerId(), job.teamId());
  }
}
