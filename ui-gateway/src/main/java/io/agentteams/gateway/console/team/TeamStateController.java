package io.agentteams.gateway.console.team;

import io.agentteams.gateway.console.ConsoleForm;
import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.api.ApiResult;
import io.agentteams.gateway.console.api.ConsoleApi;
import io.agentteams.platform.identity.Caller;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The team page's public state panel: publish an entry, or edit one compare-and-set on the revision
 * the form was based on. Each answers with its form again; a refusal keeps what the person typed
 * and says why beside the field it names.
 */
@Controller
public class TeamStateController {

  private final ConsoleApi api;

  public TeamStateController(ConsoleApi api) {
    this.api = api;
  }

  /**
   * Publishes an entry of the team's public state as the team's owner (the team-service records it
   * as written by {@code owner}); it reaches the page live, like any other entry. Answers with the
   * form again: empty with a new request id once published, or as typed with the refusal beside the
   * field the problem detail names.
   */
  @PostMapping("/console/teams/{teamId}/state")
  public Mono<String> publishState(
      @PathVariable UUID teamId,
      ConsoleForm form,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    StateDraft draft = StateDraft.of(form.fields());
    if (draft.title().isBlank()) {
      exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
      return Mono.just(
          stateForm(model, teamId, draft, Map.of("title", "Give the entry a title."), null));
    }
    return api.post(owner, "/api/v1/teams/" + teamId + "/state", draft.request())
        .map(
            result -> {
              if (result.ok()) {
                long id =
                    result.body() == null ? 0 : result.body().path("entry").path("id").asLong();
                model.addAttribute(
                    "stateMessage", id > 0 ? "Entry #" + id + " published." : "Published.");
                return stateForm(model, teamId, StateDraft.empty(), Map.of(), null);
              }
              exchange.getResponse().setStatusCode(result.problemStatus());
              String field = StateDraft.fieldOf(result);
              return field == null
                  ? stateForm(model, teamId, draft, Map.of(), result.message())
                  : stateForm(model, teamId, draft, Map.of(field, result.message()), null);
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
      ConsoleForm form,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String title = form.text("title");
    String content = form.text("content");
    long revision = form.wholeNumber("expected_revision");
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
}
