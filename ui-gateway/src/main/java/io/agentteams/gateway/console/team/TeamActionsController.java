package io.agentteams.gateway.console.team;

import io.agentteams.gateway.console.ConsoleForm;
import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.gateway.console.StatusFragment;
import io.agentteams.gateway.console.api.ConsoleApi;
import io.agentteams.gateway.console.view.Format;
import io.agentteams.gateway.console.view.TextMeasure;
import io.agentteams.platform.identity.Caller;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a person does to the team's work on the team page: send a request to the chosen members,
 * answer a question, cancel a job, interrupt a member's turn, approve a plan, create a task, set
 * the budget, reconnect or delete the team. Each answers with the fragment that replaces the part
 * of the page it came from; a refusal keeps what the person typed and says why.
 */
@Controller
public class TeamActionsController {

  private final ConsoleApi api;
  private final JsonMapper mapper;
  private final ConsoleProperties.Limits limits;

  public TeamActionsController(ConsoleApi api, JsonMapper mapper, ConsoleProperties properties) {
    this.api = api;
    this.mapper = mapper;
    this.limits = properties.limits();
  }

  /** The composer: one job for each chosen recipient; only the chips decide who gets it. */
  @PostMapping("/console/teams/{teamId}/requests")
  public Mono<String> send(
      @PathVariable UUID teamId,
      ConsoleForm form,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    List<String> recipients = form.all("recipient");
    String text = form.text("text");
    if (recipients.isEmpty()) {
      return StatusFragment.refused(
          exchange, model, "Choose at least one recipient: type @ and pick a member.");
    }
    if (text.isBlank()) {
      return StatusFragment.refused(exchange, model, "Write what you are asking.");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("recipients", recipients);
    body.put("text", text);
    String key = form.text("request_key");
    if (!key.isBlank()) {
      body.put("idempotency_key", key);
    }
    return api.post(owner, "/api/v1/teams/" + teamId + "/requests", body)
        .flatMap(
            result ->
                StatusFragment.outcome(
                    exchange, model, result, "Sent to " + String.join(", ", recipients) + "."));
  }

  /** An answer to a job waiting for input: text for a clarification, JSON for an interrupt. */
  @PostMapping("/console/jobs/{jobId}/answer")
  public Mono<String> answer(
      @PathVariable UUID jobId,
      ConsoleForm form,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    boolean interrupt = "interrupt".equals(form.text("kind"));
    String value = form.text(interrupt ? "response" : "text");
    model.addAttribute("jobId", jobId);
    model.addAttribute("interrupt", interrupt);
    model.addAttribute("value", value);
    model.addAttribute("version", form.text("version"));
    model.addAttribute("answered", false);
    model.addAttribute("error", null);
    Map<String, Object> body = new LinkedHashMap<>();
    if (interrupt) {
      JsonNode response;
      try {
        response = mapper.readTree(value);
      } catch (RuntimeException e) {
        return refuseAnswer(exchange, model, "The response is not valid JSON.");
      }
      if (TextMeasure.of(value).bytes() > limits.interruptBytes()) {
        return refuseAnswer(
            exchange, model, "The response is longer than " + limits.interruptBytes() + " bytes.");
      }
      body.put("response", response);
    } else {
      if (value.isBlank()) {
        return refuseAnswer(exchange, model, "Write an answer.");
      }
      body.put("text", value);
    }
    return api.post(owner, "/api/v1/jobs/" + jobId + "/answer", body)
        .flatMap(
            result -> {
              if (!result.ok()) {
                exchange.getResponse().setStatusCode(result.problemStatus());
                model.addAttribute("error", result.message());
                return Mono.just("fragments/activity :: answerPart");
              }
              model.addAttribute("answered", true);
              return Mono.just("fragments/activity :: answerPart");
            });
  }

  @PostMapping("/console/jobs/{jobId}/cancel")
  public Mono<String> cancel(
      @PathVariable UUID jobId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return api.post(owner, "/api/v1/jobs/" + jobId + "/cancel", Map.of())
        .flatMap(result -> StatusFragment.outcome(exchange, model, result, "Cancelled."));
  }

  /** Interrupts a member's turn: the job ends interrupted, the member's conversation kept. */
  @PostMapping("/console/teams/{teamId}/jobs/{jobId}/interrupt")
  public Mono<String> interrupt(
      @PathVariable UUID teamId,
      @PathVariable UUID jobId,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return api.post(owner, "/api/v1/teams/" + teamId + "/jobs/" + jobId + "/interrupt", Map.of())
        .flatMap(result -> StatusFragment.outcome(exchange, model, result, "Interrupted."));
  }

  /** Approves a plan held for the owner's approval, at the plan's current revision. */
  @PostMapping("/console/teams/{teamId}/plans/{planId}/approve")
  public Mono<String> approve(
      @PathVariable UUID teamId,
      @PathVariable UUID planId,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String plan = "/api/v1/teams/" + teamId + "/plans/" + planId;
    return api.get(owner, plan)
        .flatMap(
            read -> {
              if (!read.ok() || read.body() == null) {
                return Mono.just(read);
              }
              return api.post(
                  owner,
                  plan + "/approve",
                  Map.of("expected_revision", read.body().path("revision").asLong()));
            })
        .flatMap(result -> StatusFragment.outcome(exchange, model, result, "Plan approved."));
  }

  /** Sets the team's tokens budget (empty: none); the ledger holds every later admission to it. */
  @PostMapping("/console/teams/{teamId}/budget")
  public Mono<String> budget(
      @PathVariable UUID teamId,
      ConsoleForm form,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String tokens = form.text("max_tokens").replace(",", "").strip();
    Map<String, Object> body = new LinkedHashMap<>();
    if (!tokens.isEmpty()) {
      long limit = ConsoleForm.parseWholeNumber(tokens);
      if (limit < 0) {
        return StatusFragment.refused(exchange, model, "The budget is a whole number of tokens.");
      }
      body.put("max_tokens", limit);
    }
    return api.put(owner, "/api/v1/teams/" + teamId + "/budget", body)
        .flatMap(
            result ->
                StatusFragment.outcome(
                    exchange,
                    model,
                    result,
                    body.isEmpty()
                        ? "The team has no budget now."
                        : "Team budget set to "
                            + Format.INSTANCE.number((Long) body.get("max_tokens"))
                            + ("1".equals(tokens) ? " token." : " tokens.")));
  }

  /**
   * Creates a task on the team's board as the team's owner (the board records it as created by
   * {@code owner}); it reaches the page live, like any other task.
   */
  @PostMapping("/console/teams/{teamId}/tasks")
  public Mono<String> createTask(
      @PathVariable UUID teamId,
      ConsoleForm form,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String title = form.text("title").strip();
    if (title.isEmpty()) {
      return StatusFragment.refused(exchange, model, "Give the task a title.");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("title", title);
    String description = form.optional("description");
    if (description != null) {
      body.put("description", description);
    }
    return api.post(owner, "/api/v1/teams/" + teamId + "/tasks", body)
        .flatMap(
            result ->
                StatusFragment.outcome(
                    exchange,
                    model,
                    result,
                    "Task "
                        + (result.body() == null
                            ? ""
                            : "#" + result.body().path("task").path("id").asLong() + " ")
                        + "created."));
  }

  @PostMapping("/console/teams/{teamId}/reconnect")
  public Mono<String> reconnect(
      @PathVariable UUID teamId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return api.post(owner, "/api/v1/teams/" + teamId + "/reconnect", null)
        .flatMap(
            result ->
                StatusFragment.outcome(
                    exchange,
                    model,
                    result,
                    result.status() == 202 ? "Reconnecting…" : "The team is ready."));
  }

  /** Deletes the team once confirmed; the team-service refuses while jobs are unfinished. */
  @PostMapping("/console/teams/{teamId}/delete")
  public Mono<String> delete(
      @PathVariable UUID teamId,
      ConsoleForm form,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    if (!form.yes("confirm")) {
      return StatusFragment.refused(
          exchange, model, "Tick the box to confirm that the team should be deleted.");
    }
    return api.delete(owner, "/api/v1/teams/" + teamId)
        .flatMap(
            result -> {
              if (result.ok()) {
                exchange.getResponse().getHeaders().set("HX-Redirect", "/console/teams?deleted");
                return StatusFragment.of(exchange, model, HttpStatus.OK, "Deleted.", null);
              }
              return StatusFragment.of(
                  exchange,
                  model,
                  result.problemStatus(),
                  null,
                  "Not deleted: " + result.message());
            });
  }

  /** The answer form again, as typed, with why the console refused it. */
  private static Mono<String> refuseAnswer(ServerWebExchange exchange, Model model, String error) {
    exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
    model.addAttribute("error", error);
    return Mono.just("fragments/activity :: answerPart");
  }
}
