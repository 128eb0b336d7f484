package io.agentteams.team.state.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.team.StateEntry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/** The size the state limit measures is the size of the JSON readers get. */
class EntryJsonTest {

  private static final JsonMapper JACKSON =
      JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();

  private static StateEntry entry(String title, String content, String jobId) {
    return new StateEntry(
        12,
        "finding",
        title,
        content,
        "active",
        "lead",
        "2026-11-30T08:00:00.000Z",
        "critic",
        "2026-11-30T08:00:01.000Z",
        "conversation-1",
        jobId.isEmpty() ? null : jobId,
        3);
  }

  @Property(tries = 300)
  void writesExactlyWhatJacksonWritesForAnyWellFormedText(
      @ForAll @StringLength(max = 40) String title,
      @ForAll @StringLength(max = 80) String content,
      @ForAll @StringLength(max = 5) String jobId) {
    Assume.that(wellFormed(title) && wellFormed(content) && wellFormed(jobId));
    StateEntry entry = entry(title, content, jobId);

    String ours = EntryJson.write(entry);
    String jackson = JACKSON.writeValueAsString(entry);

    assertThat(ours).isEqualTo(jackson);
    assertThat(EntryJson.bytes(entry)).isEqualTo(jackson.getBytes(StandardCharsets.UTF_8).length);
  }

  @Test
  void escapesQuotesBackslashesAndControlCharactersLikeJackson() {
    StateEntry entry = entry("a\"b\\c/d", "line\nnext\ttab\u0001\u001f\u007f\u2028 中 😀", "");

    assertThat(EntryJson.write(entry)).isEqualTo(JACKSON.writeValueAsString(entry));
    assertThat(EntryJson.write(entry))
        .contains("\\u0001", "\\u001F", "\\n", "\\t", "a\\\"b\\\\c/d");
  }

  @Test
  void measuresTheArrayWithItsBracketsAndCommas() {
    List<StateEntry> entries = List.of(entry("a", "b", ""), entry("c", "d", "job"));

    assertThat(EntryJson.arrayBytes(entries))
        .isEqualTo(JACKSON.writeValueAsString(entries).getBytes(StandardCharsets.UTF_8).length);
    assertThat(EntryJson.arrayBytes(List.of())).isEqualTo(2);
  }

  private static boolean wellFormed(String text) {
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
