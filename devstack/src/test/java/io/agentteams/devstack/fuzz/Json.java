package io.agentteams.devstack.fuzz;

import java.util.List;
import java.util.Map;

/**
 * JSON text written by hand, so that a body can hold what no JSON library writes: duplicate fields,
 * unpaired surrogates (escaped as {@code \ud800}), number literals of any size, and arbitrarily
 * deep nesting. Every character outside printable ASCII is escaped.
 */
final class Json {

  /** A number literal, written as it is. */
  record Literal(String text) {}

  /** An object whose fields may repeat. */
  record Fields(List<Map.Entry<String, Object>> entries) {}

  private Json() {}

  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Literal literal) {
      out.append(literal.text());
    } else if (value instanceof Boolean || value instanceof Number) {
      out.append(value);
    } else if (value instanceof String text) {
      string(text, out);
    } else if (value instanceof Fields fields) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> entry : fields.entries()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        string(entry.getKey(), out);
        out.append(':');
        write(entry.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> items) {
      out.append('[');
      for (int i = 0; i < items.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(items.get(i), out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("not a JSON value: " + value.getClass());
    }
  }

  private static void string(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c >= 0x20 && c < 0x7f) {
        out.append(c);
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    out.append('"');
  }
}
