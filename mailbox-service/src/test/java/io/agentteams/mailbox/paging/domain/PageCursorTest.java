package io.agentteams.mailbox.paging.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.problem.DomainFailure;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class PageCursorTest {

  private static final TextBound QUERY = new TextBound("mailbox.query", 200, 800);

  @Property
  void aCursorReadsBackWithTheFiltersItWasIssuedFor(
      @ForAll @StringLength(min = 1, max = 40) String anchor,
      @ForAll @AlphaChars @StringLength(max = 20) String query) {
    String fingerprint = SearchFilters.of(null, null, query, QUERY).fingerprint("history:t");
    String safeAnchor = anchor.replace('|', '/');

    PageCursor decoded =
        PageCursor.decode(new PageCursor(safeAnchor, fingerprint).encode(), fingerprint);

    assertThat(decoded.anchor()).isEqualTo(safeAnchor);
  }

  @Test
  void aCursorIssuedForOtherFiltersOrAnotherScopeIsRejected() {
    SearchFilters notes = SearchFilters.of("lead", null, "note", QUERY);
    String cursor = new PageCursor("7:abc", notes.fingerprint("history:t1")).encode();

    for (String expected :
        new String[] {
          SearchFilters.of("lead", null, "other", QUERY).fingerprint("history:t1"),
          SearchFilters.of(null, null, "note", QUERY).fingerprint("history:t1"),
          notes.fingerprint("history:t2"),
          notes.fingerprint("results:t1")
        }) {
      assertThatThrownBy(() -> PageCursor.decode(cursor, expected))
          .isInstanceOfSatisfying(
              DomainFailure.class, p -> assertThat(p.code()).isEqualTo("cursor-filter-mismatch"));
    }
  }

  @Test
  void somethingThatIsNotACursorIsRejected() {
    for (String forged : new String[] {"", "%%%", "bm90LWEtY3Vyc29y", "YzF8fA"}) {
      assertThatThrownBy(() -> PageCursor.decode(forged, "f"))
          .isInstanceOfSatisfying(
              DomainFailure.class, p -> assertThat(p.code()).isEqualTo("invalid-cursor"));
    }
  }

  @Test
  void blankFiltersCountAsAbsent() {
    assertThat(new SearchFilters(" ", "", null)).isEqualTo(SearchFilters.none());
  }

  @Test
  void aPageSizeIsOneToTheMaximumAndDefaultsToEight() {
    PageSize sizes = PageSize.defaults();

    assertThat(sizes.resolve(null)).isEqualTo(8);
    assertThat(sizes.resolve(20)).isEqualTo(20);
    assertThatThrownBy(() -> sizes.resolve(0)).isInstanceOf(DomainFailure.class);
    assertThatThrownBy(() -> sizes.resolve(21)).isInstanceOf(DomainFailure.class);
  }
}
