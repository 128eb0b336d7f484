package io.agentteams.platform.bounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TextBoundTest {

  private final TextBound name = new TextBound("team.name", 80, 160);

  @ParameterizedTest(name = "{0} x{1}: fits={2}")
  @CsvSource({
    // ASCII: 1 byte each, so the character limit decides.
    "a, 79, true",
    "a, 80, true",
    "a, 81, false",
    // CJK: 3 bytes each, so the byte limit (160) decides at 53/54 characters.
    "调, 53, true",
    "调, 54, false",
    // Emoji: one code point, 4 bytes; 40 fit in 160 bytes, 41 do not.
    "🚀, 39, true",
    "🚀, 40, true",
    "🚀, 41, false",
    // Two-byte Latin: 80 characters are 160 bytes exactly.
    "é, 80, true",
    "é, 81, false",
  })
  void countsCharactersAndBytesAtTheLimits(String unit, int times, boolean fits) {
    String value = unit.repeat(times);
    if (fits) {
      assertThat(name.check(value)).isEqualTo(value);
    } else {
      assertThatThrownBy(() -> name.check(value)).isInstanceOf(LimitExceededException.class);
    }
  }

  @Test
  void namesTheLimitThatWasExceeded() {
    assertThatThrownBy(() -> name.check("a".repeat(81)))
        .isInstanceOfSatisfying(
            LimitExceededException.class,
            e -> {
              assertThat(e.limit()).isEqualTo("team.name.max-chars");
              assertThat(e.max()).isEqualTo(80);
              assertThat(e.actual()).isEqualTo(81);
            });
    assertThatThrownBy(() -> name.check("调".repeat(54)))
        .isInstanceOfSatisfying(
            LimitExceededException.class,
            e -> {
              assertThat(e.limit()).isEqualTo("team.name.max-bytes");
              assertThat(e.actual()).isEqualTo(162);
            });
  }

  @Test
  void rejectsUnpairedSurrogates() {
    assertThatThrownBy(() -> name.check("ok\uD83D"))
        .isInstanceOfSatisfying(
            DomainFailure.class, e -> assertThat(e.code()).isEqualTo("unpaired-surrogate"));
    assertThatThrownBy(() -> name.check("\uDE80ok"))
        .isInstanceOfSatisfying(
            DomainFailure.class, e -> assertThat(e.code()).isEqualTo("unpaired-surrogate"));
    assertThatThrownBy(() -> name.check("\uD83D\uD83D\uDE80")).isInstanceOf(DomainFailure.class);
  }

  @Test
  void rejectsMissingAndBlankText() {
    assertThatThrownBy(() -> name.check(null))
        .isInstanceOfSatisfying(
            DomainFailure.class, e -> assertThat(e.code()).isEqualTo("missing-field"));
    assertThatThrownBy(() -> name.checkNotBlank("  "))
        .isInstanceOfSatisfying(
            DomainFailure.class, e -> assertThat(e.code()).isEqualTo("blank-field"));
  }

  @Property
  void measuresLikeTheJdkForWellFormedText(@ForAll String text) {
    if (!isWellFormed(text)) {
      return;
    }
    TextBound.Measure measure = TextBound.measure("f", text);
    assertThat(measure.chars()).isEqualTo(text.codePointCount(0, text.length()));
    assertThat(measure.bytes()).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
  }

  @Property
  void truncationKeepsWholeCharactersWithinTheBudget(@ForAll String text, @ForAll byte budget) {
    if (!isWellFormed(text) || budget < 0) {
      return;
    }
    Utf8Truncation.Cut cut = Utf8Truncation.cut(text, budget);
    assertThat(cut.text().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(budget);
    assertThat(text).startsWith(cut.text());
    assertThat(isWellFormed(cut.text())).isTrue();
    assertThat(cut.truncated()).isEqualTo(!cut.text().equals(text));
  }

  private static boolean isWellFormed(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }
}
