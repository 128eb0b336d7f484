package io.agentteams.gateway.console.runs;

import io.agentteams.gateway.console.ConsoleForm;
import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.api.ApiResult;
import io.agentteams.gateway.console.api.ConsoleApi;
import io.agentteams.gateway.console.api.Reads;
import io.agentteams.gateway.console.view.Run;
import io.agentteams.gateway.console.view.RunTimeline;
import io.agentteams.gateway.console.view.Spend;
import io.agentteams.platform.identity.Caller;
import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * {@code /console/teams/{teamId}/runs}: the team's runs and a form to start one; each run's page
 * shows its plan, its timeline by phase (plan, rounds, synthesis), its result, and the approval,
 * rejection and cancel the owner may give. A run's page refreshes itself until the run ends.
 */
@Controller
public class RunsController {

  private final ConsoleApi api;
  private final Reads reads;

  public RunsController(ConsoleApi api, Reads reads) {
    this.api = api;
    this.reads = reads;
  }

  @GetMapping("/console/teams/{teamId}/runs")
  public Mono<String> runs(
      @PathVariable UUID teamId, Principal principal, Model model, ServerWebExchange exchange) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return listPage(owner, teamId, model, exchange, "", null);
  }

  /** Starts a run with the form's objective and options, then shows its page. */
  @PostMapping("/console/teams/{teamId}/runs")
  public Mono<String> start(
      @PathVariable UUID teamId,
      ConsoleForm form,
      Principal principal,
      Model model,
      ServerWebExchange exchange) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String objective = form.text("objective");
    if (objective.isBlank()) {
      exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
      return listPage(owner, teamId, model, exchange, objective, "Write the objective.");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("objective", objective);
    body.put("require_plan_approval", form.yes("require_plan_approval"));
    body.put("continue_on_member_error", form.yes("continue_on_member_error"));
    if (!form.text("budget_tokens").isBlank()) {
      long tokens = form.wholeNumber("budget_tokens");
      if (tokens < 0) {
        exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
        return listPage(owner, teamId, model, exchange, objective, "The budget is a whole number.");
      }
      body.put("budget", Map.of("max_tokens", tokens));
    }
    if (!form.text("run_key").isBlank()) {
      body.put("idempotency_key", form.text("run_key"));
    }
    return api.post(owner, "/api/v1/teams/" + teamId + "/runs", body)
        .flatMap(
            result -> {
              if (result.ok() && result.body() != null) {
                return Mono.just(
                    "redirect:/console/teams/"
                        + teamId
                        + "/runs/"
                        + result.body().path("id").asString());
              }
              exchange.getResponse().setStatusCode(result.problemStatus());
              return listPage(owner, teamId, model, exchange, objective, result.message());
            });
  }

  @GetMapping("/console/teams/{teamId}/runs/{runId}")
  public Mono<String> run(
      @PathVariable UUID teamId,
      @PathVariable UUID runId,
      Principal principal,
      Model model,
      ServerWebExchange exchange) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return reads
        .team(owner, teamId)
        .flatMap(
            team -> {
              model.addAttribute("team", team);
              return body(owner, teamId, runId, model).thenReturn("run");
            })
        .onErrorResume(ApiResult.ApiException.class, e -> problem(e, exchange, model));
  }

  /** The run's body alone, for the page's refresh while the run goes on. */
  @GetMapping("/console/teams/{teamId}/runs/{runId}/live")
  public Mono<String> live(
      @PathVariable UUID teamId, @PathVariable UUID runId, Principal principal, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return body(owner, teamId, runId, model).thenReturn("fragments/run :: body");
  }

  @PostMapping("/console/teams/{teamId}/runs/{runId}/approve")
  public Mono<String> approve(
      @PathVariable UUID teamId,
      @PathVariable UUID runId,
      Principal principal,
      Model model,
      ServerWebExchange exchange) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return act(owner, teamId, runId, "approve", Map.of(), "Plan approved.", model, exchange);
  }

  @PostMapping("/console/teams/{teamId}/runs/{runId}/reject")
  public Mono<String> reject(
      @PathVariable UUID teamId,
      @PathVariable UUID runId,
      ConsoleForm form,
      Principal principal,
      Model model,
      ServerWebExchange exchange) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String reason = form.text("reason");
    if (reason.isBlank()) {
      exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
      model.addAttribute("actionError", "Say why the plan is rejected.");
      return body(owner, teamId, runId, model).thenReturn("fragments/run :: body");
    }
    return act(
        owner,
        teamId,
        runId,
        "reject",
        Map.of("reason", reason),
        "Plan rejected.",
        model,
        exchange);
  }

  @PostMapping("/console/teams/{teamId}/runs/{runId}/cancel")
  public Mono<String> cancel(
      @PathVariable UUID teamId,
      @PathVariable UUID runId,
      Principal principal,
      Model model,
      ServerWebExchange exchange) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return act(owner, teamId, runId, "cancel", Map.of(), "Run cancelled.", model, exchange);
  }

  private Mono<String> act(
      Caller.Owner owner,
      UUID teamId,
      UUID runId,
      String action,
      Map<String, Object> body,
      String done,
      Model model,
      ServerWebExchange exchange) {
    return api.post(owner, "/api/v1/teams/" + teamId + "/runs/" + runId + "/" + action, body)
        .flatMap(
            result -> {
              if (result.ok()) {
                model.addAttribute("actionMessage", done);
              } else {
                exchange.getResponse().setStatusCode(result.problemStatus());
                model.addAttribute("actionError", result.message());
              }
              return body(owner, teamId, runId, model).thenReturn("fragments/run :: body");
            });
  }

  private Mono<Void> body(Caller.Owner owner, UUID teamId, UUID runId, Model model) {
    String path = "/api/v1/teams/" + teamId + "/runs/" + runId + "/export";
    return api.get(owner, path)
        .map(
            result -> {
              JsonNode export = result.orThrow();
              Run run = reads.as(export.path("run"), Run.class);
              List<RunTimeline.Entry> entries = new ArrayList<>();
              for (JsonNode entry : export.path("timeline")) {
                entries.add(reads.as(entry, RunTimeline.Entry.class));
              }
              model.addAttribute("teamId", teamId);
              model.addAttribute("run", run);
              model.addAttribute(
                  "spend",
                  export.path("spend").isObject()
                      ? reads.as(export.path("spend"), Spend.Line.class)
                      : null);
              model.addAttribute("timeline", RunTimeline.of(entries));
              return run;
            })
        .then();
  }

  private Mono<String> listPage(
      Caller.Owner owner,
      UUID teamId,
      Model model,
      ServerWebExchange exchange,
      String objective,
      @org.jspecify.annotations.Nullable String error) {
    return reads
        .team(owner, teamId)
        .flatMap(
            team ->
                api.get(owner, "/api/v1/teams/" + teamId + "/runs?limit=50")
                    .zipWith(api.get(owner, "/api/v1/teams/" + teamId + "/spend"))
                    .map(
                        results -> {
                          ApiResult result = results.getT1();
                          List<Run> runs = new ArrayList<>();
                          Map<String, String> objectives = new LinkedHashMap<>();
                          for (JsonNode run : result.orThrow().path("runs")) {
                            Run read = reads.as(run, Run.class);
                            runs.add(read);
                            objectives.put(read.id().toString(), read.objective());
                          }
                          ApiResult spent = results.getT2();
                          model.addAttribute("team", team);
                          model.addAttribute("runs", runs);
                          model.addAttribute("objectives", objectives);
                          model.addAttribute(
                              "spend",
                              spent.ok() && spent.body() != null
                                  ? reads.as(spent.body(), Spend.class)
                                  : null);
                          model.addAttribute("objective", objective);
                          model.addAttribute("formError", error);
                          return "runs";
                        }))
        .onErrorResume(ApiResult.ApiException.class, e -> problem(e, exchange, model));
  }

  private static Mono<String> problem(
      ApiResult.ApiException e, ServerWebExchange exchange, Model model) {
    boolean missing = e.result().status() == 404;
    exchange
        .getResponse()
        .setStatusCode(missing ? HttpStatus.NOT_FOUND : HttpStatus.SERVICE_UNAVAILABLE);
    model.addAttribute(
        "message", missing ? "There is no such run among yours." : e.result().message());
    return Mono.just("problem");
  }
}
