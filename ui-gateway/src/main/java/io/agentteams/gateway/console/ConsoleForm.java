package io.agentteams.gateway.console;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.util.MultiValueMap;

/**
 * A form a console page posted, read the same way by every page: a missing field reads as empty
 * text. A controller method takes it as a parameter ({@link ConsoleFormResolver} reads it).
 *
 * @param fields the posted fields by name, each with its values in the order posted
 */
public record ConsoleForm(MultiValueMap<String, String> fields) {

  /** The field's first value, or empty text when it was not posted. */
  public String text(String name) {
    String value = fields.getFirst(name);
    return value == null ? "" : value;
  }

  /** Every value of a repeated field (chips, checkboxes), in the order posted. */
  public List<String> all(String name) {
    return fields.getOrDefault(name, List.of());
  }

  /** The field stripped, or null when it was not posted or is blank. */
  public @Nullable String optional(String name) {
    return blankToNull(fields.getFirst(name));
  }

  /** Whether the field says {@code yes} (a ticked checkbox or a confirmation). */
  public boolean yes(String name) {
    return "yes".equals(fields.getFirst(name));
  }

  /** The field, stripped, as a whole number; -1 when it is not one. */
  public long wholeNumber(String name) {
    return parseWholeNumber(text(name).strip());
  }

  /** Typed text as a whole number; -1 when it is not one. */
  public static long parseWholeNumber(String typed) {
    try {
      return Math.max(-1, Long.parseLong(typed));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The text stripped, or null when it is null or blank. */
  public static @Nullable String blankToNull(@Nullable String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
