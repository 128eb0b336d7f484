package io.agentteams.gateway.console.view;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The owner's own account as the API shows it: its spend and budget across all its teams, what each
 * team spent, and its spend per day of the last days. Costs are integer micro-units of {@code
 * currency}.
 */
public record OwnerSpend(
    String currency, Spend.Line owner, List<TeamTotal> teams, List<Spend.Day> daily) {

  public OwnerSpend {
    teams = teams == null ? List.of() : List.copyOf(teams);
    daily = daily == null ? List.of() : List.copyOf(daily);
  }

  /** What one team spent in all. */
  public record TeamTotal(UUID teamId, long tokens, long cost, long jobs) {}

  /** The owner's spend per day across its teams. */
  public Spend.Trend trend() {
    return new Spend.Trend(daily, currency);
  }

  /** What the team spent in all; nothing when it has not spent yet. */
  public @Nullable TeamTotal of(UUID teamId) {
    return byTeam().get(teamId);
  }

  /** The team's total cost as money to the cent ({@code 0.00 USD} when it spent nothing). */
  public String teamCost(UUID teamId) {
    TeamTotal total = of(teamId);
    return Spend.money(total == null ? 0 : total.cost(), currency);
  }

  /** The team's total tokens with thousands separators ({@code 0} when it spent nothing). */
  public String teamTokens(UUID teamId) {
    TeamTotal total = of(teamId);
    return Format.INSTANCE.number(total == null ? 0 : total.tokens());
  }

  private Map<UUID, TeamTotal> byTeam() {
    return teams.stream().collect(Collectors.toMap(TeamTotal::teamId, Function.identity()));
  }
}
