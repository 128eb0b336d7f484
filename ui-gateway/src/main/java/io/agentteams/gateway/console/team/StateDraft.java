package io.agentteams.gateway.console.team;

import io.agentteams.gateway.console.api.ApiResult;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.util.MultiValueMap;
import tools.jackson.databind.JsonNode;

/**
 * A public state entry as the team page's "New entry" form holds it, exactly as typed: shown again
 * unchanged when the entry is refused, with the refusal beside the field it names.
 *
 * @param requestId the publish request id: the same for every send of this draft, so a repeated
 *     send publishes one entry; a fresh one once the entry is published
 * @param kind the entry's kind, one of {@link #KINDS}
 * @param title its title
 * @param content its content (may be empty)
 */
public record StateDraft(String requestId, String kind, String title, String content) {

  /** The kinds the team-service accepts, in the order the form offers them. */
  public static final List<String> KINDS =
      List.of("objective", "plan", "finding", "question", "requirement");

  /** An empty draft with a new request id. */
  public static StateDraft empty() {
    return new StateDraft(UUID.randomUUID().toString(), KINDS.get(0), "", "");
  }

  /** The draft a submitted form holds; a form without a request id gets a new one. */
  public static StateDraft of(MultiValueMap<String, String> form) {
    String requestId = value(form.getFirst("request_id")).strip();
    return new StateDraft(
        requestId.isEmpty() ? UUID.randomUUID().toString() : requestId,
        value(form.getFirst("kind")),
        value(form.getFirst("title")),
        value(form.getFirst("content")));
  }

  /** The kinds the form offers. */
  public List<String> kinds() {
    return KINDS;
  }

  /** The publish request the team-service takes. */
  public Map<String, Object> request() {
    return Map.of("request_id", requestId, "kind", kind, "title", title, "content", content);
  }

  /**
   * The form field a refusal of the team-service is about, from its problem detail: the kind it
   * refused, or the limit or text rule of the title or the content; null when it is about the entry
   * as a whole (the team's entry or byte limit, a reused request id, the team's status).
   */
  public static @Nullable String fieldOf(ApiResult refusal) {
    JsonNode problem = refusal.body();
    if (problem == null) {
      return null;
    }
    if ("invalid-entry-kind".equals(problem.path("code").asString(""))) {
      return "kind";
    }
    String named = problem.path("limit").asString(problem.path("field").asString(""));
    if (named.isEmpty()) {
      // A blank title names its field only in the detail ("state.title must not be blank").
      named = problem.path("detail").asString("");
    }
    for (String field : List.of("title", "content")) {
      String bound = "state." + field;
      if (named.equals(bound) || named.startsWith(bound + ".") || named.startsWith(bound + " ")) {
        return field;
      }
    }
    return null;
  }

  private static String value(@Nullable String text) {
    return text == null ? "" : text;
  }
}
