package io.agentteams.team.support;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Texts at the exact character and byte boundaries of a bound (limit - 1, limit, limit + 1) in
 * ASCII, two-byte Latin, CJK (3 bytes) and emoji (4 bytes, two UTF-16 units, one character), and
 * texts with unpaired surrogates, each with the outcome a correct check must have.
 */
public final class TextBoundaries {

  public static final String CJK = "中";
  public static final String EMOJI = "😀";
  public static final String LATIN = "é";

  private TextBoundaries() {}

  /**
   * Cases for a bound named {@code field} allowing {@code maxChars} characters and {@code maxBytes}
   * UTF-8 bytes. Each is (label, text, expected) where expected is null when the text fits, the
   * limit's name ({@code field.max-chars} or {@code field.max-bytes}) when it is too long, or
   * {@code unpaired-surrogate}.
   */
  public static Stream<Arguments> of(String field, int maxChars, int maxBytes) {
    List<Arguments> cases = new ArrayList<>();
    String chars = field + ".max-chars";
    String bytes = field + ".max-bytes";
    // ASCII: one byte per character, so the character limit binds (bytes allow at least as many).
    cases.add(arguments("ascii limit-1", ascii(maxChars - 1), null));
    cases.add(arguments("ascii limit", ascii(maxChars), null));
    cases.add(arguments("ascii limit+1", ascii(maxChars + 1), chars));
    // Two-byte Latin: at maxBytes = 2 * maxChars both limits meet.
    int latinFit = Math.min(maxChars, maxBytes / 2);
    cases.add(arguments("latin at limit", LATIN.repeat(latinFit), null));
    cases.add(
        arguments(
            "latin limit+1", LATIN.repeat(latinFit + 1), latinFit + 1 > maxChars ? chars : bytes));
    // CJK: three bytes per character, so the byte limit binds; pad with ASCII to hit it exactly.
    int cjk = (maxBytes - 1) / 3;
    cases.add(arguments("cjk bytes limit-1", cjkWithBytes(cjk, maxBytes - 1), null));
    cases.add(arguments("cjk bytes limit", cjkWithBytes(cjk, maxBytes), null));
    cases.add(arguments("cjk bytes limit+1", cjkWithBytes(cjk, maxBytes + 1), bytes));
    cases.add(arguments("cjk one char too many", CJK.repeat(maxBytes / 3 + 1), bytes));
    // Emoji: four bytes and one character each, though two UTF-16 units.
    int emoji = maxBytes / 4;
    cases.add(
        arguments(
            "emoji bytes limit-1",
            EMOJI.repeat(emoji - 1) + ascii(maxBytes - 1 - 4 * (emoji - 1)),
            null));
    cases.add(
        arguments("emoji bytes limit", EMOJI.repeat(emoji) + ascii(maxBytes - 4 * emoji), null));
    cases.add(
        arguments(
            "emoji bytes limit+1", EMOJI.repeat(emoji) + ascii(maxBytes + 1 - 4 * emoji), bytes));
    // Unpaired surrogates have no UTF-8 form.
    cases.add(arguments("lone high surrogate", "ab\uD83D", "unpaired-surrogate"));
    cases.add(arguments("lone low surrogate", "\uDE00ab", "unpaired-surrogate"));
    cases.add(arguments("reversed pair", "a\uDE00\uD83Db", "unpaired-surrogate"));
    cases.add(
        arguments(
            "emoji cut in half at the limit",
            EMOJI.repeat(emoji - 1) + "\uD83D",
            "unpaired-surrogate"));
    return cases.stream();
  }

  private static Arguments arguments(String label, String text, @Nullable String expected) {
    return Arguments.of(
        label + " (" + text.codePointCount(0, text.length()) + " chars, " + utf8(text) + " bytes)",
        text,
        expected);
  }

  public static String ascii(int length) {
    return "a".repeat(Math.max(0, length));
  }

  /** {@code count} CJK characters padded with ASCII to exactly {@code totalBytes} bytes. */
  public static String cjkWithBytes(int count, int totalBytes) {
    return CJK.repeat(count) + ascii(totalBytes - 3 * count);
  }

  public static int utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * Asserts that the check passes, or is rejected naming the expected limit (a dotted name such as
   * {@code team.name.max-chars}) or problem code (such as {@code unpaired-surrogate}).
   */
  public static void assertOutcome(ThrowingCallable check, @Nullable String expected) {
    if (expected == null) {
      assertThatCode(check).doesNotThrowAnyException();
    } else if (expected.contains(".")) {
      assertThatThrownBy(check)
          .isInstanceOf(LimitExceededException.class)
          .extracting(e -> ((LimitExceededException) e).limit())
          .isEqualTo(expected);
    } else {
      assertThatThrownBy(check)
          .isInstanceOf(DomainFailure.class)
          .extracting(e -> ((DomainFailure) e).code())
          .isEqualTo(expected);
    }
  }
}
