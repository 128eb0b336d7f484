package io.agentteams.scheduler.budget.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.scheduler.budget.application.Budgets;
import io.agentteams.scheduler.budget.domain.Balance;
import io.agentteams.scheduler.budget.domain.DaySpend;
import io.agentteams.scheduler.budget.domain.ModelSpend;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.budget.domain.TeamTotal;
import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.budget.persistence.SpendStore;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Budgets and spend: {@code GET /api/v1/teams/{teamId}/spend} (the team's spend per member, run and
 * chain, with the team's and the owner's totals), {@code PUT /api/v1/teams/{teamId}/budget}, and
 * the owner's own {@code GET|PUT /api/v1/budget} (budget across all its teams, and currency, with
 * each team's total), each with spend per day of the last days. Costs are integer micro-units of
 * the owner's currency.
 */
@RestController
public class SpendController {

  private final Budgets budgets;

  public SpendController(Budgets budgets) {
    this.budgets = budgets;
  }

  @GetMapping("/api/v1/teams/{teamId}/spend")
  public Mono<TeamSpendView> teamSpend(Caller.Owner owner, @PathVariable UUID teamId) {
    return budgets.teamSpend(owner, teamId).map(TeamSpendView::of);
  }

  @PutMapping("/api/v1/teams/{teamId}/budget")
  public Mono<LineView> setTeamBudget(
      Caller.Owner owner, @PathVariable UUID teamId, @RequestBody BudgetBody body) {
    return budgets
        .setTeamBudget(owner, teamId, body.toBudget())
        .map(line -> LineView.of(line.balance(), line.byModel()));
  }

  @GetMapping("/api/v1/budget")
  public Mono<OwnerSpendView> ownerSpend(Caller.Owner owner) {
    return budgets.ownerSpend(owner).map(OwnerSpendView::of);
  }

  @PutMapping("/api/v1/budget")
  public Mono<OwnerSpendView> setOwnerBudget(
      Caller.Owner owner, @RequestBody OwnerBudgetBody body) {
    return budgets
        .setOwnerBudget(
            owner,
            new BudgetBody(body.maxTokens(), body.maxCost(), null, null).toBudget(),
            body.currency())
        .map(OwnerSpendView::of);
  }

  /** The owner's budget: tokens and cost across all its teams, and the currency of every cost. */
  public record OwnerBudgetBody(
      @Nullable Long maxTokens, @Nullable Long maxCost, @Nullable String currency) {}

  /** Tokens and cost (micro-units of the owner's currency). */
  public record AmountView(long tokens, long cost) {}

  /**
   * What settled jobs spent: tokens (input and output together, the measure budgets count), of them
   * those the models read and wrote, and cost (micro-units of the owner's currency).
   */
  public record SpentView(long tokens, long inputTokens, long outputTokens, long cost) {

    static SpentView of(Usage spent) {
      return new SpentView(
          spent.tokens(), spent.inputTokens(), spent.outputTokens(), spent.costUnits());
    }
  }

  /**
   * What settled jobs spent with one model. A job counts under the model its latest report named,
   * {@code unspecified} when it named none; past the deployment's bound the rest are summed under
   * {@code other}.
   *
   * @param model the model's name as the agents reported it (untrusted text)
   * @param inputTokens tokens it read
   * @param outputTokens tokens it wrote
   * @param tokens all its tokens
   * @param cost micro-units of the owner's currency
   * @param jobs settled jobs
   */
  public record ModelView(
      String model, long inputTokens, long outputTokens, long tokens, long cost, long jobs) {

    static List<ModelView> of(List<ModelSpend> models) {
      return models.stream()
          .map(
              m ->
                  new ModelView(
                      m.model(), m.inputTokens(), m.outputTokens(), m.tokens(), m.cost(), m.jobs()))
          .toList();
    }
  }

  /**
   * One scope's account.
   *
   * @param scope owner, team, member, run or chain
   * @param id the scope's id ({@code teamId/member} for a member)
   * @param member the member's name, for a member
   * @param spent what settled jobs used
   * @param reserved what admitted jobs hold until they settle
   * @param budget the limits that apply (set, or the deployment's defaults); null with none
   * @param remainingTokens what is left of the tokens budget; null with no such budget
   * @param remainingCost what is left of the cost budget; null with no such budget
   * @param byModel what is spent, per model, most tokens first; adds up to {@code spent}
   */
  public record LineView(
      String scope,
      String id,
      @Nullable String member,
      SpentView spent,
      AmountView reserved,
      @Nullable BudgetBody budget,
      @Nullable Long remainingTokens,
      @Nullable Long remainingCost,
      List<ModelView> byModel) {

    public static LineView of(Balance b, List<ModelSpend> byModel) {
      String member =
          b.scope().kind() == Scope.Kind.MEMBER
              ? b.scope().id().substring(b.scope().id().indexOf('/') + 1)
              : null;
      return new LineView(
          b.scope().kind().wire(),
          b.scope().id(),
          member,
          SpentView.of(b.spent()),
          new AmountView(b.reserved().tokens(), b.reserved().costUnits()),
          b.budget().any() ? BudgetBody.of(b.budget()) : null,
          b.remainingTokens(),
          b.remainingCost(),
          ModelView.of(byModel));
    }
  }

  /**
   * What was spent on one day (UTC), counted on the day each job finished.
   *
   * @param day the day, {@code 2026-12-07}
   * @param tokens all tokens
   * @param cost micro-units of the owner's currency
   * @param jobs the jobs that spent anything
   */
  public record DayView(String day, long tokens, long cost, long jobs) {

    static List<DayView> of(List<DaySpend> days) {
      return days.stream()
          .map(d -> new DayView(d.day().toString(), d.tokens(), d.cost(), d.jobs()))
          .toList();
    }
  }

  /**
   * What one of the owner's teams spent in all (a deleted team's spend stays listed).
   *
   * @param teamId the team
   * @param tokens all tokens its settled jobs used
   * @param cost micro-units of the owner's currency
   * @param jobs the jobs settled on it
   */
  public record TeamTotalView(UUID teamId, long tokens, long cost, long jobs) {

    static List<TeamTotalView> of(List<TeamTotal> teams) {
      return teams.stream()
          .map(t -> new TeamTotalView(t.teamId(), t.tokens(), t.cost(), t.jobs()))
          .toList();
    }
  }

  /** A team's spend, with its spend per day of the trend's days (oldest first, zero days too). */
  public record TeamSpendView(
      UUID teamId,
      String currency,
      LineView owner,
      LineView team,
      List<LineView> members,
      List<LineView> runs,
      List<LineView> chains,
      List<DayView> daily) {

    static TeamSpendView of(Budgets.TeamSpend spend) {
      return new TeamSpendView(
          UUID.fromString(spend.team().scope().id()),
          spend.currency(),
          LineView.of(spend.owner(), spend.models(spend.owner().scope())),
          LineView.of(spend.team(), spend.models(spend.team().scope())),
          lines(spend, Scope.Kind.MEMBER),
          lines(spend, Scope.Kind.RUN),
          lines(spend, Scope.Kind.CHAIN),
          DayView.of(spend.daily()));
    }

    private static List<LineView> lines(Budgets.TeamSpend spend, Scope.Kind kind) {
      return spend.rows().stream()
          .map(SpendStore.Row::balance)
          .filter(b -> b.scope().kind() == kind)
          .map(b -> LineView.of(b, spend.models(b.scope())))
          .toList();
    }
  }

  /**
   * The owner's own account, what each of its teams spent, and its spend per day of the trend's
   * days across all its teams (oldest first, zero days too).
   */
  public record OwnerSpendView(
      String currency, LineView owner, List<TeamTotalView> teams, List<DayView> daily) {
    static OwnerSpendView of(Budgets.OwnerSpend spend) {
      return new OwnerSpendView(
          spend.currency(),
          LineView.of(spend.owner(), spend.byModel()),
          TeamTotalView.of(spend.teams()),
          DayView.of(spend.daily()));
    }
  }
}
