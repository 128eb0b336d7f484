package io.agentteams.mailbox.paging.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.bounds.Utf8Truncation;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.json.JsonMapper;

class ResponseBudgetTest {

  private static final ResponseBudget BUDGET =
      new ResponseBudget(JsonMapper.builder().build(), 2000);

  record Item(String text, boolean truncated) {}

  record Page(List<Item> items, String cursor) {}

  private static final ResponseBudget.Shortener<Item> SHORTEN =
      new ResponseBudget.Shortener<>() {
        @Override
        public int textBytes(Item item) {
          return TextBound.utf8Length(item.text());
        }

        @Override
        public Item cut(Item item, int maxBytes) {
          return new Item(Utf8Truncation.cut(item.text(), maxBytes).text(), true);
        }
      };

  @Provide
  Arbitrary<List<Item>> pages() {
    // Characters JSON escapes (up to six bytes each) and characters of two to four UTF-8 bytes.
    Arbitrary<String> heavy =
        Arbitraries.of("\u0001", "\"", "\\", "\n", "a", "\u00e9", "\u6f22", "\uD83D\uDE00")
            .list()
            .ofMaxSize(1200)
            .map(units -> String.join("", units));
    return heavy.map(text -> new Item(text, false)).list().ofMaxSize(12);
  }

  @Property
  void aPageNeverExceedsTheBudgetAndKeepsRecordsInOrder(@ForAll("pages") List<Item> candidates) {
    ResponseBudget.Fit<Item> fit =
        BUDGET.fit(candidates, items -> new Page(items, "c".repeat(40)), SHORTEN);

    assertThat(BUDGET.size(new Page(fit.records(), "c".repeat(40)))).isLessThanOrEqualTo(2000);
    if (!candidates.isEmpty()) {
      assertThat(fit.records()).isNotEmpty();
    }
    for (int i = 0; i < fit.records().size(); i++) {
      Item shown = fit.records().get(i);
      assertThat(candidates.get(i).text()).startsWith(shown.text());
      assertThat(shown.truncated()).isEqualTo(!shown.text().equals(candidates.get(i).text()));
    }
    assertThat(fit.cut()).isEqualTo(fit.records().size() < candidates.size());
  }

  @Property
  void aSingleRecordIsCutNoMoreThanItMustBe(@ForAll("pages") List<Item> candidates) {
    for (Item item : candidates) {
      Item fitted = BUDGET.fitOne(item, one -> one, SHORTEN);
      assertThat(BUDGET.size(fitted)).isLessThanOrEqualTo(2000);
      if (fitted.truncated()) {
        String longer =
            item.text()
                .substring(
                    0,
                    fitted.text().length()
                        + Character.charCount(item.text().codePointAt(fitted.text().length())));
        // One more character would not fit, whether as a shorter cut or as the whole text.
        boolean whole = longer.equals(item.text());
        assertThat(BUDGET.size(new Item(longer, !whole))).isGreaterThan(2000);
      }
    }
  }
}
