package io.agentteams.gateway.context;

import io.agentteams.platform.bounds.Utf8Truncation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fits a team context into its byte budget: the oldest messages go first; only if the context still
 * does not fit with no message left are the longest state contents shortened (the state's own
 * limits make that a safety net rather than a normal case). Sizes are measured on the UTF-8 JSON
 * actually sent, so escaping and multi-byte characters are counted as they travel.
 */
final class ContextBudget {

  private final JsonMapper mapper;
  private final int maxBytes;

  ContextBudget(JsonMapper mapper, int maxBytes) {
    this.mapper = mapper;
    this.maxBytes = maxBytes;
  }

  /**
   * The context with as many of the newest messages as fit.
   *
   * @param context the context without messages; it receives {@code recent_messages} (oldest
   *     first), {@code omitted_messages} and {@code truncated}
   * @param newestFirst the recent messages, newest first
   * @param alreadyOmitted recent messages the mailbox already left out of its own budget; they
   *     count as omitted too, so the count always equals what the context lacks
   */
  ObjectNode fit(ObjectNode context, List<JsonNode> newestFirst, int alreadyOmitted) {
    List<JsonNode> kept = new ArrayList<>(newestFirst);
    Collections.reverse(kept);
    int omitted = alreadyOmitted;
    ObjectNode candidate = compose(context, kept, omitted, false);
    while (size(candidate) > maxBytes && !kept.isEmpty()) {
      kept.remove(0);
      omitted++;
      candidate = compose(context, kept, omitted, false);
    }
    if (size(candidate) <= maxBytes) {
      return candidate;
    }
    return shortenState(candidate);
  }

  private ObjectNode compose(
      ObjectNode context, List<JsonNode> messages, int omitted, boolean truncated) {
    ObjectNode composed = context.deepCopy();
    ArrayNode recent = composed.putArray("recent_messages");
    messages.forEach(recent::add);
    composed.put("omitted_messages", omitted);
    composed.put("truncated", truncated || omitted > 0);
    return composed;
  }

  private ObjectNode shortenState(ObjectNode candidate) {
    candidate.put("truncated", true);
    JsonNode state = candidate.get("state");
    if (state == null || !state.isArray()) {
      return candidate;
    }
    List<ObjectNode> entries = new ArrayList<>();
    state.forEach(entry -> entries.add((ObjectNode) entry));
    while (size(candidate) > maxBytes) {
      ObjectNode longest =
          entries.stream()
              .filter(e -> e.path("content").isString() && !e.path("content").asString().isEmpty())
              .max(Comparator.comparingInt(e -> utf8Length(e.path("content").asString())))
              .orElse(null);
      if (longest == null) {
        break;
      }
      String content = longest.path("content").asString();
      int over = size(candidate) - maxBytes;
      int length = utf8Length(content);
      int keep = Math.max(0, Math.min(length / 2, length - over));
      longest.put("content", Utf8Truncation.cut(content, keep).text());
      longest.put("content_truncated", true);
    }
    return candidate;
  }

  private static int utf8Length(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  int size(JsonNode node) {
    return mapper.writeValueAsBytes(node).length;
  }
}
