package io.agentteams.team.state.domain;

import io.agentteams.contracts.team.StateEntry;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The JSON of entries exactly as the API and events write them (snake_case, fields in declaration
 * order, nulls written, only {@code "}, {@code \} and control characters escaped), so the byte
 * limit on a team's state measures what readers receive.
 */
public final class EntryJson {

  private EntryJson() {}

  /** UTF-8 bytes of the JSON array of the entries. */
  public static int arrayBytes(List<StateEntry> entries) {
    int bytes = 2 + Math.max(0, entries.size() - 1);
    for (StateEntry entry : entries) {
      bytes += bytes(entry);
    }
    return bytes;
  }

  /** UTF-8 bytes of one entry's JSON object. */
  public static int bytes(StateEntry entry) {
    return utf8(write(entry));
  }

  /** One entry's JSON object. */
  public static String write(StateEntry entry) {
    StringBuilder json = new StringBuilder(256);
    json.append("{\"id\":").append(entry.id());
    field(json, "kind", entry.kind());
    field(json, "title", entry.title());
    field(json, "content", entry.content());
    field(json, "status", entry.status());
    field(json, "created_by", entry.createdBy());
    field(json, "created_at", entry.createdAt());
    field(json, "updated_by", entry.updatedBy());
    field(json, "updated_at", entry.updatedAt());
    field(json, "source_conversation_id", entry.sourceConversationId());
    field(json, "source_job_id", entry.sourceJobId());
    json.append(",\"revision\":").append(entry.revision()).append('}');
    return json.toString();
  }

  private static void field(StringBuilder json, String name, @Nullable String value) {
    json.append(",\"").append(name).append("\":");
    if (value == null) {
      json.append("null");
      return;
    }
    json.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\b' -> json.append("\\b");
        case '\t' -> json.append("\\t");
        case '\n' -> json.append("\\n");
        case '\f' -> json.append("\\f");
        case '\r' -> json.append("\\r");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04X", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }

  private static int utf8(String text) {
    int bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
