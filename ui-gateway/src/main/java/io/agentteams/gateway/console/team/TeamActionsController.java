package io.agentteams.gateway.console.team;

import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.gateway.console.api.ApiResult;
import io.agentteams.gateway.console.api.ConsoleApi;
import io.agentteams.gateway.console.api.Reads;
import io.agentteams.gateway.console.view.Format;
import io.agentteams.gateway.console.view.TextMeasure;
import io.agentteams.platform.identity.Caller;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a person does on the team page: send a request to the chosen members, answer a question,
 * cancel a job, interrupt a member's turn, approve a plan, create a task, publish or edit a public
 * state entry, search the history, reconnect or delete the team. Each answers with the fragment
 * that replaces the part of the page it came from; a refusal keeps what the person typed and says
 * why.
 */
@Controller
public class TeamActionsController {

  private final ConsoleApi api;
  private final Reads reads;
  private final JsonMapper mapper;
  private final ConsoleProperties.Limits limits;

  public TeamActionsController(
      ConsoleApi api, Reads reads, JsonMapper mapper, ConsoleProperties properties) {
    this.api = api;
    this.reads = reads;
    this.mapper = mapper;
    this.limits = properties.limits();
  }

  /** The composer: one job for each chosen recipient; only the chips decide who gets it. */
  @PostMapping("/console/teams/{teamId}/requests")
  public Mono<String> send(
      @PathVariable UUID teamId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return exchange
        .getFormData()
        .flatMap(
            form -> {
              List<String> recipients = form.getOrDefault("recipient", List.of());
              String text = field(form, "text");
              if (recipients.isEmpty()) {
                return status(
                    exchange,
                    model,
                    HttpStatus.UNPROCESSABLE_CONTENT,
                    null,
                    "Choose at least one recipient: type @ and pick a member.");
              }
              if (text.isBlank()) {
                return status(
                    exchange,
                    model,
                    HttpStatus.UNPROCESSABLE_CONTENT,
                    null,
                    "Write what you are asking.");
              }
              Map<String, Object> body = new LinkedHashMap<>();
              body.put("recipients", recipients);
              body.put("text", text);
              String key = field(form, "request_key");
              if (!key.isBlank()) {
                body.put("idempotency_key", key);
              }
              return api.post(owner, "/api/v1/teams/" + teamId + "/requests", body)
                  .flatMap(
                      result ->
                          outcome(
                              exchange,
                              model,
                              result,
                              "Sent to " + String.join(", ", recipients) + "."));
            });
  }

  /** An answer to a job waiting for input: text for a clarification, JSON for an interrupt. */
  @PostMapping("/console/jobs/{jobId}/answer")
  public Mono<String> answer(
      @PathVariable UUID jobId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return exchange
        .getFormData()
        .flatMap(
            form -> {
              boolean interrupt = "interrupt".equals(field(form, "kind"));
              String value = field(form, interrupt ? "response" : "text");
              model.addAttribute("jobId", jobId);
              model.addAttribute("interrupt", interrupt);
              model.addAttribute("value", value);
              model.addAttribute("version", field(form, "version"));
              model.addAttribute("answered", false);
              model.addAttribute("error", null);
              Map<String, Object> body = new LinkedHashMap<>();
              if (interrupt) {
                JsonNode response;
                try {
                  response = mapper.readTree(value);
                } catch (RuntimeException e) {
                  return refuse(exchange, model, "The response is not valid JSON.");
                }
                if (TextMeasure.of(value).bytes() > limits.interruptBytes()) {
                  return refuse(
                      exchange,
                      model,
                      "The response is longer than " + limits.interruptBytes() + " bytes.");
                }
                body.put("response", response);
              } else {
                if (value.isBlank()) {
                  return refuse(exchange, model, "Write an answer.");
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
            });
  }

  @PostMapping("/console/jobs/{jobId}/cancel")
  public Mono<String> cancel(
      @PathVariable UUID jobId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return api.post(owner, "/api/v1/jobs/" + jobId + "/cancel", Map.of())
        .flatMap(result -> outcome(exchange, model, result, "Cancelled."));
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
        .flatMap(result -> outcome(exchange, model, result, "Interrupted."));
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
        .flatMap(result -> outcome(exchange, model, result, "Plan approved."));
  }

  /** Sets the team's tokens budget (empty: none); the ledger holds every later admission to it. */
  @PostMapping("/console/teams/{teamId}/budget")
  public Mono<String> budget(
      @PathVariable UUID teamId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return exchange
        .getFormData()
        .flatMap(
            form -> {
              String tokens = field(form, "max_tokens").replace(",", "").strip();
              Map<String, Object> body = new LinkedHashMap<>();
              if (!tokens.isEmpty()) {
                long limit;
                try {
                  limit = Long.parseLong(tokens);
                } catch (NumberFormatException e) {
                  limit = -1;
                }
                if (limit < 0) {
                  return status(
                      exchange,
                      model,
                      HttpStatus.UNPROCESSABLE_CONTENT,
                      null,
                      "The budget is a whole number of tokens.");
                }
                body.put("max_tokens", limit);
              }
              return api.put(owner, "/api/v1/teams/" + teamId + "/budget", body)
                  .flatMap(
                      result ->
                          outcome(
                              exchange,
                              model,
                              result,
                              body.isEmpty()
                                  ? "The team has no budget now."
                                  : "Team budget set to "
                                      + Format.INSTANCE.number((Long) body.get("max_tokens"))
                                      + ("1".equals(tokens) ? " token." : " tokens.")));
            });
  }

  /**
   * Creates a task on the team's board as the team's owner (the board records it as created by
   * {@code owner}); it reaches the page live, like any other task.
   */
  @PostMapping("/console/teams/{teamId}/tasks")
  public Mono<String> createTask(
      @PathVariable UUID teamId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return exchange
        .getFormData()
        .flatMap(
            form -> {
              String title = field(form, "title").strip();
              if (title.isEmpty()) {
                return status(
                    exchange,
                    model,
                    HttpStatus.UNPROCESSABLE_CONTENT,
                    null,
                    "Give the task a title.");
              }
              Map<String, Object> body = new LinkedHashMap<>();
              body.put("title", title);
              String description = blankToNull(field(form, "description"));
              if (description != null) {
                body.put("description", description);
              }
              return api.post(owner, "/api/v1/teams/" + teamId + "/tasks", body)
                  .flatMap(
                      result ->
                          outcome(
                              exchange,
                              model,
                              result,
                              "Task "
                                  + (result.body() == null
                                      ? ""
                                      : "#" + result.body().path("task").path("id").asLong() + " ")
                                  + "created."));
            });
  }

  /**
   * Publishes an entry of the team's public state as the team's owner (the team-service records it
   * as written by {@code owner}); it reaches the page live, like any other entry. Answers with the
   * form again: empty with a new request id once published, or as typed with the refusal beside the
   * field the problem detail names.
   */
  @PostMapping("/console/teams/{teamId}/state")
  public Mono<String> publishState(
      @PathVariable UUID teamId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return exchange
        .getFormData()
        .flatMap(
            form -> {
              StateDraft draft = StateDraft.of(form);
              if (draft.title().isBlank()) {
                exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
                return Mono.just(
                    stateForm(
                        model, teamId, draft, Map.of("title", "Give the entry a title."), null));
              }
              return api.post(owner, "/api/v1/teams/" + teamId + "/state", draft.request())
                  .map(
                      result -> {
                        if (result.ok()) {
                          long id =
                              result.body() == null
                                  ? 0
                                  : result.body().path("entry").path("id").asLong();
                          model.addAttribute(
                              "stateMessage",
                              id > 0 ? "Entry #" + id + " published." : "Published.");
                          return stateForm(model, teamId, StateDraft.empty(), Map.of(), null);
                        }
                        exchange.getResponse().setStatusCode(result.problemStatus());
                        String field = StateDraft.fieldOf(result);
                        return field == null
                            ? stateForm(model, teamId, draft, Map.of(), result.message())
                            : stateForm(
                                model, teamId, draft, Map.of(field, result.message()), null);
                      });
            });
  }

  /**
   * Changes an entry's title and content as the team's owner, compare-and-set on the revision the
   * form was based on. Answers with the edit form: at the new revision once saved (the card itself
   * changes live); on a conflict with the draft kept, based on the current revision, and what the
   * entry says now, so that saving again replaces it knowingly; on a refusal with the draft kept
   * and the reason beside the field it names.
   */
  @PostMapping("/console/teams/{teamId}/state/{entryId}")
  public Mono<String> editState(
      @PathVariable UUID teamId,
      @PathVariable long entryId,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return exchange
        .getFormData()
        .flatMap(
            form -> {
              String title = field(form, "title");
              String content = field(form, "content");
              long expected;
              try {
                expected = Long.parseLong(field(form, "expected_revision").strip());
              } catch (NumberFormatException e) {
                expected = -1;
              }
              long revision = expected;
              if (revision < 1) {
                exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
                return Mono.just(
                    editForm(
                        model,
                        new EditForm(teamId, entryId, 1, title, content),
                        Map.of(),
                        null,
                        "Reload the page: the form lost the revision it was based on."));
              }
              EditForm draft = new EditForm(teamId, entryId, revision, title, content);
              if (title.isBlank()) {
                exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
                return Mono.just(
                    editForm(model, draft, Map.of("title", "Give the entry a title."), null, null));
              }
              Map<String, Object> body = new LinkedHashMap<>();
              body.put("expected_revision", revision);
              body.put("title", title);
              body.put("content", content);
              return api.put(owner, "/api/v1/teams/" + teamId + "/state/" + entryId, body)
                  .map(result -> edited(exchange, model, draft, result));
            });
  }

  /** The edit form after the team-service answered the change. */
  private static String edited(
      ServerWebExchange exchange, Model model, EditForm draft, ApiResult result) {
    JsonNode body = result.body();
    JsonNode entry = body != null && body.path("entry").isObject() ? body.path("entry") : null;
    if (result.ok() && entry != null) {
      long revision = entry.path("revision").asLong();
      return editForm(
          model,
          new EditForm(
              draft.teamId(),
              draft.entryId(),
              revision,
              entry.path("title").asString(),
              entry.path("content").asString()),
          Map.of(),
          "Saved as revision " + revision + ".",
          null);
    }
    exchange.getResponse().setStatusCode(result.problemStatus());
    if (result.status() == 409 && entry != null && body.path("conflict").asBoolean(false)) {
      long current = entry.path("revision").asLong();
      return editForm(
          model,
          new EditForm(draft.teamId(), draft.entryId(), current, draft.title(), draft.content()),
          Map.of(),
          null,
          "Changed meanwhile: revision "
              + current
              + " by "
              + entry.path("updated_by").asString()
              + " reads \""
              + entry.path("title").asString()
              + ": "
              + entry.path("content").asString()
              + "\". Your text is kept; save again to replace it.");
    }
    String field = StateDraft.fieldOf(result);
    return field == null
        ? editForm(model, draft, Map.of(), null, result.message())
        : editForm(model, draft, Map.of(field, result.message()), null, null);
  }

  @PostMapping("/console/teams/{teamId}/reconnect")
  public Mono<String> reconnect(
      @PathVariable UUID teamId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return api.post(owner, "/api/v1/teams/" + teamId + "/reconnect", null)
        .flatMap(
            result ->
                outcome(
                    exchange,
                    model,
                    result,
                    result.status() == 202 ? "Reconnecting…" : "The team is ready."));
  }

  /** Deletes the team once confirmed; the team-service refuses while jobs are unfinished. */
  @PostMapping("/console/teams/{teamId}/delete")
  public Mono<String> delete(
      @PathVariable UUID teamId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return exchange
        .getFormData()
        .flatMap(
            form -> {
              if (!"yes".equals(field(form, "confirm"))) {
                return status(
                    exchange,
                    model,
                    HttpStatus.UNPROCESSABLE_CONTENT,
                    null,
                    "Tick the box to confirm that the team should be deleted.");
              }
              return api.delete(owner, "/api/v1/teams/" + teamId)
                  .flatMap(
                      result -> {
                        if (result.ok()) {
                          exchange
                              .getResponse()
                              .getHeaders()
                              .set("HX-Redirect", "/console/teams?deleted");
                          return status(exchange, model, HttpStatus.OK, "Deleted.", null);
                        }
                        return status(
                            exchange,
                            model,
                            result.problemStatus(),
                            null,
                            "Not deleted: " + result.message());
                      });
            });
  }

  /** The next page of the activity feed, older than {@code before}. */
  @GetMapping("/console/teams/{teamId}/activity")
  public Mono<String> olderActivity(
      @PathVariable UUID teamId,
      @RequestParam UUID before,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    int page = TeamPageController.FEED_PAGE;
    return reads
        .activity(owner, teamId, before, page + 1)
        .map(
            items -> {
              model.addAttribute("teamId", teamId);
              model.addAttribute("activity", items.subList(0, Math.min(page, items.size())));
              model.addAttribute(
                  "olderBefore", items.size() > page ? items.get(page - 1).request().id() : null);
              return "fragments/activity :: page";
            })
        .onErrorResume(
            ApiResult.ApiException.class,
            e -> status(exchange, model, e.result().problemStatus(), null, e.result().message()));
  }

  /** A page of the team's history with the chosen filters; {@code cursor} asks for older ones. */
  @GetMapping("/console/teams/{teamId}/history")
  public Mono<String> history(
      @PathVariable UUID teamId,
      @RequestParam(required = false) @Nullable String member,
      @RequestParam(required = false) @Nullable String job,
      @RequestParam(required = false) @Nullable String q,
      @RequestParam(required = false) @Nullable String cursor,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String memberFilter = blankToNull(member);
    String jobFilter = blankToNull(job);
    String query = blankToNull(q);
    return reads
        .history(
            owner,
            teamId,
            memberFilter,
            jobFilter,
            query,
            blankToNull(cursor),
            TeamPageController.HISTORY_PAGE)
        .map(
            page -> {
              model.addAttribute("teamId", teamId);
              model.addAttribute("history", page);
              model.addAttribute("member", memberFilter);
              model.addAttribute("job", jobFilter);
              model.addAttribute("q", query);
              model.addAttribute(
                  "historyFiltered", memberFilter != null || jobFilter != null || query != null);
              return cursor == null || cursor.isBlank()
                  ? "fragments/history :: results"
                  : "fragments/history :: more";
            })
        .onErrorResume(
            ApiResult.ApiException.class,
            e -> status(exchange, model, e.result().problemStatus(), null, e.result().message()));
  }

  /** What an entry's edit form shows: the entry, the revision it is based on, the text. */
  private record EditForm(UUID teamId, long entryId, long revision, String title, String content) {}

  /** An entry's edit form, with what it should say. */
  private static String editForm(
      Model model,
      EditForm form,
      Map<String, String> problems,
      @Nullable String message,
      @Nullable String error) {
    model.addAttribute("teamId", form.teamId());
    model.addAttribute("entryId", form.entryId());
    model.addAttribute("revision", form.revision());
    model.addAttribute("title", form.title());
    model.addAttribute("content", form.content());
    model.addAttribute("problems", problems);
    model.addAttribute("message", message);
    model.addAttribute("error", error);
    return "fragments/state :: editPart";
  }

  /** The "New entry" form of the public state panel, with what it should say. */
  private static String stateForm(
      Model model,
      UUID teamId,
      StateDraft draft,
      Map<String, String> problems,
      @Nullable String error) {
    model.addAttribute("teamId", teamId);
    model.addAttribute("stateDraft", draft);
    model.addAttribute("stateProblems", problems);
    model.addAttribute("stateError", error);
    if (!model.containsAttribute("stateMessage")) {
      model.addAttribute("stateMessage", null);
    }
    return "fragments/state :: form";
  }

  private Mono<String> refuse(ServerWebExchange exchange, Model model, String error) {
    exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
    model.addAttribute("error", error);
    return Mono.just("fragments/activity :: answerPart");
  }

  /** The status fragment for an API call's outcome: its message, or the call's problem. */
  private static Mono<String> outcome(
      ServerWebExchange exchange, Model model, ApiResult result, String message) {
    return result.ok()
        ? status(exchange, model, HttpStatus.OK, message, null)
        : status(exchange, model, result.problemStatus(), null, result.message());
  }

  private static Mono<String> status(
      ServerWebExchange exchange,
      Model model,
      HttpStatus status,
      @Nullable String message,
      @Nullable String error) {
    exchange.getResponse().setStatusCode(status);
    model.addAttribute("message", message);
    model.addAttribute("error", error);
    return Mono.just("fragments/status :: status");
  }

  private static String field(MultiValueMap<String, String> form, String name) {
    String value = form.getFirst(name);
    return value == null ? "" : value;
  }

  private static @Nullable String blankToNull(@Nullable String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
