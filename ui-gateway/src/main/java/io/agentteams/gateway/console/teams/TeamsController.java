package io.agentteams.gateway.console.teams;

import io.agentteams.gateway.console.ConsoleForm;
import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.gateway.console.StatusFragment;
import io.agentteams.gateway.console.api.ApiResult;
import io.agentteams.gateway.console.api.ConsoleApi;
import io.agentteams.gateway.console.api.Reads;
import io.agentteams.gateway.console.view.Format;
import io.agentteams.gateway.console.view.OwnerSpend;
import io.agentteams.gateway.console.view.Spend;
import io.agentteams.gateway.console.view.Team;
import io.agentteams.platform.identity.Caller;
import java.security.Principal;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * {@code /console/teams}: the owner's teams with how many more they may have, what each spent, and
 * the owner's spend, budget (set from the page) and day-by-day trend across them; {@code
 * /console/teams/new}: a new team from the agent catalog. A refused team is shown again exactly as
 * typed, with the reason.
 */
@Controller
public class TeamsController {

  /** Catalog results per search. */
  static final int CATALOG_PAGE = 20;

  private final Reads reads;
  private final ConsoleApi api;
  private final ConsoleProperties.Limits limits;

  public TeamsController(Reads reads, ConsoleApi api, ConsoleProperties properties) {
    this.reads = reads;
    this.api = api;
    this.limits = properties.limits();
  }

  @GetMapping("/console/teams")
  public Mono<String> list(
      Principal principal, Model model, @RequestParam(required = false) @Nullable String deleted) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return reads
        .teams(owner)
        .zipWith(ownerSpend(owner))
        .map(
            found -> {
              List<Team> teams = found.getT1();
              model.addAttribute("ownerSpend", found.getT2().orElse(null));
              List<Team> newestFirst =
                  teams.stream().sorted(Comparator.comparing(Team::createdAt).reversed()).toList();
              model.addAttribute("teams", newestFirst);
              model.addAttribute("atLimit", teams.size() >= limits.teamsPerOwner());
              model.addAttribute("deleted", deleted != null);
              model.addAttribute("error", null);
              return "teams";
            })
        .onErrorResume(
            ApiResult.ApiException.class,
            e -> {
              model.addAttribute("teams", List.of());
              model.addAttribute("ownerSpend", null);
              model.addAttribute("atLimit", false);
              model.addAttribute("deleted", false);
              model.addAttribute("error", e.result().message());
              return Mono.just("teams");
            });
  }

  /**
   * Sets the owner's tokens budget across all its teams (empty: none), keeping its cost budget and
   * currency; the ledger refuses every later request that would pass it.
   */
  @PostMapping("/console/budget")
  public Mono<String> ownerBudget(
      ConsoleForm form, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String tokens = form.text("max_tokens").replace(",", "").strip();
    Long limit = null;
    if (!tokens.isEmpty()) {
      limit = ConsoleForm.parseWholeNumber(tokens);
      if (limit < 0) {
        return StatusFragment.refused(exchange, model, "The budget is a whole number of tokens.");
      }
    }
    Long maxTokens = limit;
    return reads
        .ownerSpend(owner)
        .flatMap(
            current -> {
              Map<String, Object> body = new LinkedHashMap<>();
              body.put("max_tokens", maxTokens);
              Spend.Limits set = current.owner().budget();
              body.put("max_cost", set == null ? null : set.maxCost());
              body.put("currency", current.currency());
              return api.put(owner, "/api/v1/budget", body);
            })
        .flatMap(
            result ->
                StatusFragment.outcome(
                    exchange,
                    model,
                    result,
                    maxTokens == null
                        ? "You have no budget across your teams now."
                        : "Budget across your teams set to "
                            + Format.INSTANCE.number(maxTokens)
                            + (maxTokens == 1 ? " token." : " tokens.")))
        .onErrorResume(
            ApiResult.ApiException.class,
            e ->
                StatusFragment.of(
                    exchange, model, HttpStatus.BAD_GATEWAY, null, e.result().message()));
  }

  @GetMapping("/console/teams/new")
  public String form(Model model) {
    return form(model, TeamDraft.empty(), Map.of(), null);
  }

  @PostMapping("/console/teams")
  public Mono<String> create(
      ConsoleForm form, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    TeamDraft draft = TeamDraft.of(form.fields());
    Map<String, String> problems = draft.problems(limits);
    if (!problems.isEmpty()) {
      exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
      return Mono.just(form(model, draft, problems, null));
    }
    return api.post(owner, "/api/v1/teams", draft.request())
        .map(
            result -> {
              if (result.ok() && result.body() != null) {
                // At its composer: asking the new team is the next thing to do.
                return "redirect:/console/teams/"
                    + result.body().path("id").asString()
                    + "#composer";
              }
              exchange
                  .getResponse()
                  .setStatusCode(
                      result.status() >= 400 && result.status() < 500
                          ? HttpStatus.valueOf(result.status())
                          : HttpStatus.BAD_GATEWAY);
              return form(model, draft, Map.of(), result.message());
            });
  }

  /**
   * The catalog search of the create form: the owner's agents matching by name or description. A
   * catalog that cannot be read shows the reason and a retry, never a made-up list.
   */
  @GetMapping("/console/catalog")
  public Mono<String> catalog(
      Principal principal,
      Model model,
      ServerWebExchange exchange,
      @RequestParam(required = false) @Nullable String q) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String query = q == null ? "" : q.strip();
    model.addAttribute("q", query);
    return reads
        .agents(owner, query.isEmpty() ? null : query, CATALOG_PAGE)
        .map(
            agents -> {
              model.addAttribute("agents", agents);
              model.addAttribute("error", null);
              return "fragments/catalog :: results";
            })
        .onErrorResume(
            ApiResult.ApiException.class,
            e -> {
              // 200 so the fragment (with its retry) replaces the results either way.
              model.addAttribute("agents", List.of());
              model.addAttribute("error", e.result().message());
              return Mono.just("fragments/catalog :: results");
            });
  }

  /** The owner's spend, empty while the scheduler cannot say (the list shows without it). */
  private Mono<Optional<OwnerSpend>> ownerSpend(Caller.Owner owner) {
    return reads
        .ownerSpend(owner)
        .map(Optional::of)
        .onErrorResume(e -> Mono.just(Optional.empty()));
  }

  private String form(
      Model model, TeamDraft draft, Map<String, String> problems, @Nullable String error) {
    model.addAttribute("draft", draft);
    model.addAttribute("problems", problems);
    model.addAttribute("error", error);
    return "team-new";
  }
}
