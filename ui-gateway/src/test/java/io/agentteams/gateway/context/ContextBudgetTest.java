package io.agentteams.gateway.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class ContextBudgetTest {

  private static final int BUDGET = 24_000;
  private final JsonMapper mapper = JsonMapper.builder().build();
  private final ContextBudget budget = new ContextBudget(mapper, BUDGET);

  @Test
  void keepsEveryMessageWhenTheyFitOldestFirst() {
    List<JsonNode> newestFirst = messages(8, "short");

    ObjectNode fitted = budget.fit(context("a goal"), newestFirst, 0);

    assertThat(fitted.get("recent_messages"))
        .extracting(m -> m.get("message_id").asString())
        .containsExactly("m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8");
    assertThat(fitted.get("omitted_messages").asInt()).isZero();
    assertThat(fitted.get("truncated").asBoolean()).isFalse();
  }

  @Test
  void dropsTheOldestMessagesFirstWhenEscapingAndMultiByteTextExceedTheBudget() {
    // Quotes, backslashes and control characters grow when escaped; emoji take four bytes.
    String heavy = "\"\\\n\u0001😀é".repeat(600);
    List<JsonNode> newestFirst = messages(8, heavy);

    ObjectNode fitted = budget.fit(context("g".repeat(2_000)), newestFirst, 0);

    assertThat(mapper.writeValueAsBytes(fitted).length).isLessThanOrEqualTo(BUDGET);
    List<String> kept = new ArrayList<>();
    fitted.get("recent_messages").forEach(m -> kept.add(m.get("message_id").asString()));
    assertThat(kept).isNotEmpty().hasSizeLessThan(8);
    // What is kept is the newest run, in order: m(9 - k) .. m8.
    List<String> expected = new ArrayList<>();
    for (int i = 9 - kept.size(); i <= 8; i++) {
      expected.add("m" + i);
    }
    assertThat(kept).containsExactlyElementsOf(expected);
    assertThat(fitted.get("omitted_messages").asInt()).isEqualTo(8 - kept.size());
    assertThat(fitted.get("truncated").asBoolean()).isTrue();
    // One more message would not have fitted.
    ObjectNode withOneMore = fitted.deepCopy();
    withOneMore.withArray("recent_messages").insert(0, newestFirst.get(kept.size()));
    assertThat(mapper.writeValueAsBytes(withOneMore).length).isGreaterThan(BUDGET);
  }

  @Test
  void countsAsOmittedTheMessagesTheMailboxAlreadyLeftOutBesideThoseDroppedHere() {
    // Twenty full state entries leave room for few near-maximum messages; the mailbox had already
    // cut three of the eight newest from its own response.
    ObjectNode context = context("goal");
    var state = context.putArray("state");
    for (int i = 0; i < 20; i++) {
      ObjectNode entry = state.addObject();
      entry.put("id", i);
      entry.put("title", "t".repeat(80));
      entry.put("content", "c".repeat(700));
    }
    List<JsonNode> newestFirst = messages(5, "m".repeat(5_000));

    ObjectNode fitted = budget.fit(context, newestFirst, 3);

    int kept = fitted.get("recent_messages").size();
    assertThat(kept).isPositive().isLessThan(5);
    assertThat(fitted.get("omitted_messages").asInt())
        .as("every one of the eight newest that is not here")
        .isEqualTo(8 - kept);
    assertThat(fitted.get("truncated").asBoolean()).isTrue();
  }

  @Test
  void shortensTheLongestStateContentOnlyWhenNoMessageIsLeftToDrop() {
    ObjectNode context = context("goal");
    var state = context.putArray("state");
    for (int i = 0; i < 4; i++) {
      ObjectNode entry = state.addObject();
      entry.put("id", i);
      entry.put("content", "\u0002".repeat(1_500 + i));
    }

    ObjectNode fitted = budget.fit(context, messages(3, "x".repeat(100)), 0);

    assertThat(mapper.writeValueAsBytes(fitted).length).isLessThanOrEqualTo(BUDGET);
    assertThat(fitted.get("recent_messages")).isEmpty();
    assertThat(fitted.get("truncated").asBoolean()).isTrue();
    assertThat(fitted.get("state").get(3).get("content_truncated").asBoolean()).isTrue();
  }

  private ObjectNode context(String goal) {
    ObjectNode context = mapper.createObjectNode();
    context.put("team_id", "t");
    context.put("goal", goal);
    context.putArray("state");
    return context;
  }

  /** Messages m1..mN, returned newest first as mailbox-service gives them. */
  private List<JsonNode> messages(int count, String text) {
    List<JsonNode> newestFirst = new ArrayList<>();
    for (int i = count; i >= 1; i--) {
      ObjectNode message = mapper.createObjectNode();
      message.put("message_id", "m" + i);
      message.put("text", text);
      newestFirst.add(message);
    }
    return newestFirst;
  }
}
