package io.agentteams.scheduler.budget.application;

import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.scheduler.budget.BudgetProperties;
import io.agentteams.scheduler.budget.domain.Balance;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.BudgetProblems;
import io.agentteams.scheduler.budget.domain.DaySpend;
import io.agentteams.scheduler.budget.domain.ModelSpend;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.budget.domain.TeamTotal;
import io.agentteams.scheduler.budget.persistence.BudgetStore;
import io.agentteams.scheduler.budget.persistence.LedgerStore;
import io.agentteams.scheduler.budget.persistence.SpendStore;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * What owners set and read of the ledger: the owner's budget and currency, a team's budget, and a
 * team's spend per member, run and chain beside the team's and the owner's totals.
 */
@Service
public class Budgets {

  /** The team's owner sets its budget and reads its spend, also once the team is deleted. */
  static final AccessPolicy OWNING =
      AccessPolicy.admitting(AccessPolicy.CallerKind.OWNER).keepingDeletedTeams();

  private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

  /** Most rows of a team's members, runs and chains a spend view lists. */
  static final int MAX_ROWS = 200;

  /**
   * A team's spend.
   *
   * @param currency the owner's currency, every cost is in micro-units of it
   * @param owner the owner's balance, across all its teams
   * @param team the team's balance
   * @param rows the team's members, runs and chains, most recently changed first
   * @param byModel each of those scopes' spend per model, most tokens first
   * @param daily the team's spend per day of the trend's days, oldest first
   */
  public record TeamSpend(
      String currency,
      Balance owner,
      Balance team,
      List<SpendStore.Row> rows,
      Map<Scope, List<ModelSpend>> byModel,
      List<DaySpend> daily) {

    /** A scope's spend per model; empty when it settled nothing. */
    public List<ModelSpend> models(Scope scope) {
      return byModel.getOrDefault(scope, List.of());
    }
  }

  /** One scope's balance and its spend per model. */
  public record Line(Balance balance, List<ModelSpend> byModel) {}

  /**
   * The owner's balance and currency, its spend per model, what each of its teams spent, and its
   * spend per day of the trend's days, oldest first.
   */
  public record OwnerSpend(
      String currency,
      Balance owner,
      List<ModelSpend> byModel,
      List<TeamTotal> teams,
      List<DaySpend> daily) {}

  private final RosterAccess access;
  private final LedgerStore store;
  private final BudgetStore budgets;
  private final SpendStore spend;
  private final BudgetProperties settings;
  private final Clock clock;

  public Budgets(
      RosterAccess access,
      LedgerStore store,
      BudgetStore budgets,
      SpendStore spend,
      BudgetProperties properties,
      Clock clock) {
    this.access = access;
    this.store = store;
    this.budgets = budgets;
    this.spend = spend;
    this.settings = properties;
    this.clock = clock;
  }

  /** Sets (or, with no limits, clears) the budget of a team. */
  public Mono<Line> setTeamBudget(Caller.Owner owner, UUID teamId, Budget budget) {
    Instant now = clock.instant();
    Scope team = Scope.team(teamId);
    return access
        .check(owner, teamId, OWNING)
        .flatMap(
            grant ->
                budgets
                    .setBudget(team, grant.ownerId(), budget, null, now)
                    .then(balance(team, now))
                    .zipWith(spend.byModel(List.of(team), settings.modelsShown()))
                    .map(
                        found ->
                            new Line(found.getT1(), found.getT2().getOrDefault(team, List.of()))));
  }

  /** Sets the owner's budget (across all its teams) and currency. */
  public Mono<OwnerSpend> setOwnerBudget(
      Caller.Owner owner, Budget budget, @Nullable String currency) {
    if (currency != null && !CURRENCY.matcher(currency).matches()) {
      return Mono.error(BudgetProblems.currency(currency));
    }
    Instant now = clock.instant();
    Scope scope = Scope.owner(owner.ownerId());
    return budgets.setBudget(scope, owner.ownerId(), budget, currency, now).then(ownerSpend(owner));
  }

  /** The owner's balance and currency. */
  public Mono<OwnerSpend> ownerSpend(Caller.Owner owner) {
    Instant now = clock.instant();
    Scope scope = Scope.owner(owner.ownerId());
    return Mono.zip(
            currency(owner.ownerId()),
            balance(scope, now),
            spend.byModel(List.of(scope), settings.modelsShown()),
            spend.teamTotals(owner.ownerId()).collectList(),
            daily(owner.ownerId(), null, now))
        .map(
            found ->
                new OwnerSpend(
                    found.getT1(),
                    found.getT2(),
                    found.getT3().getOrDefault(scope, List.of()),
                    found.getT4(),
                    found.getT5()));
  }

  /** A team's spend, with its owner's. */
  public Mono<TeamSpend> teamSpend(Caller.Owner owner, UUID teamId) {
    Instant now = clock.instant();
    return access
        .check(owner, teamId, OWNING)
        .flatMap(
            grant ->
                store
                    .read(
                        List.of(Scope.owner(grant.ownerId()), Scope.team(teamId)),
                        settings::defaults,
                        now)
                    .zipWith(currency(grant.ownerId()))
                    .flatMap(
                        found ->
                            spend
                                .teamRows(teamId, settings::defaults, MAX_ROWS)
                                .filter(row -> row.balance().scope().kind() != Scope.Kind.TEAM)
                                .collectList()
                                .flatMap(
                                    rows -> {
                                      Map<Scope, Balance> balances = found.getT1();
                                      Scope ownerScope = Scope.owner(grant.ownerId());
                                      Scope teamScope = Scope.team(teamId);
                                      List<Scope> scopes = new ArrayList<>();
                                      scopes.add(ownerScope);
                                      scopes.add(teamScope);
                                      rows.forEach(r -> scopes.add(r.balance().scope()));
                                      return spend
                                          .byModel(scopes, settings.modelsShown())
                                          .zipWith(daily(grant.ownerId(), teamId, now))
                                          .map(
                                              models ->
                                                  new TeamSpend(
                                                      found.getT2(),
                                                      balances.get(ownerScope),
                                                      balances.get(teamScope),
                                                      rows,
                                                      models.getT1(),
                                                      models.getT2()));
                                    })));
  }

  /** The spend per day of the trend's days up to today (UTC), oldest first, zero days included. */
  private Mono<List<DaySpend>> daily(String ownerId, @Nullable UUID teamId, Instant now) {
    LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
    int days = settings.trendDays();
    Instant since = today.minusDays(days - 1L).atStartOfDay(ZoneOffset.UTC).toInstant();
    return spend
        .daily(ownerId, teamId, since)
        .collectList()
        .map(found -> DaySpend.lastDays(found, today, days));
  }

  private Mono<Balance> balance(Scope scope, Instant now) {
    return store.read(List.of(scope), settings::defaults, now).map(found -> found.get(scope));
  }

  private Mono<String> currency(String ownerId) {
    return budgets
        .budget(Scope.owner(ownerId))
        .map(row -> row.currency() == null ? settings.currency() : row.currency());
  }
}
