package io.agentteams.platform.bounds;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A limit on a text field counted both in characters (Unicode code points, so an emoji is one) and
 * in UTF-8 bytes. Text with an unpaired UTF-16 surrogate is rejected: it has no UTF-8 form.
 *
 * @param field the field's name in errors, e.g. {@code team.name}
 * @param maxChars the most code points allowed
 * @param maxBytes the most UTF-8 bytes allowed
 */
public record TextBound(String field, int maxChars, int maxBytes) {

  public TextBound {
    if (maxChars < 0 || maxBytes < 0) {
      throw new IllegalArgumentException("limits of " + field + " must not be negative");
    }
  }

  /** Returns the value when it fits; otherwise throws a problem naming the limit. */
  public String check(@Nullable String value) {
    if (value == null) {
      throw DomainFailure.invalid("missing-field", field + " is required");
    }
    Measure measure = measure(field, value);
    if (measure.chars() > maxChars) {
      throw new LimitExceededException(field + ".max-chars", "chars", maxChars, measure.chars());
    }
    if (measure.bytes() > maxBytes) {
      throw new LimitExceededException(field + ".max-bytes", "bytes", maxBytes, measure.bytes());
    }
    return value;
  }

  /** Like {@link #check} but also rejects blank text. */
  public String checkNotBlank(@Nullable String value) {
    String checked = check(value);
    if (checked.isBlank()) {
      throw DomainFailure.invalid("blank-field", field + " must not be blank");
    }
    return checked;
  }

  /** Code points and UTF-8 bytes of a well-formed text. */
  public record Measure(int chars, int bytes) {}

  /**
   * Counts code points and UTF-8 bytes in one pass.
   *
   * @throws DomainFailure when the text holds an unpaired surrogate
   */
  public static Measure measure(String field, String value) {
    int chars = 0;
    int bytes = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      chars++;
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
          bytes += 4;
          i++;
        } else {
          throw unpaired(field, i);
        }
      } else if (Character.isLowSurrogate(c)) {
        throw unpaired(field, i);
      } else {
        bytes += 3;
      }
    }
    return new Measure(chars, bytes);
  }

  /** UTF-8 length of a well-formed text. */
  public static int utf8Length(String value) {
    return value.getBytes(StandardCharsets.UTF_8).length;
  }

  private static DomainFailure unpaired(String field, int index) {
    return new DomainFailure(
        DomainFailure.Kind.INVALID,
        "unpaired-surrogate",
        field + " holds an unpaired UTF-16 surrogate at index " + index,
        Map.of("field", field, "index", index));
  }
}
