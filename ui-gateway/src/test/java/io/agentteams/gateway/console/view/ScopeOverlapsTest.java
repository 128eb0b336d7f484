package io.agentteams.gateway.console.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScopeOverlapsTest {

  @Test
  void scopesOverlapWhenOneContainsTheOtherBySegments() {
    assertThat(ScopeOverlaps.overlap("/docs", "/docs/intro")).isTrue();
    assertThat(ScopeOverlaps.overlap("/docs/intro", "/docs")).isTrue();
    assertThat(ScopeOverlaps.overlap("/docs", "/docs")).isTrue();
    assertThat(ScopeOverlaps.overlap("/", "/anything")).isTrue();
    assertThat(ScopeOverlaps.overlap("/docs", "/docsite")).isFalse();
    assertThat(ScopeOverlaps.overlap("/a/b", "/a/c")).isFalse();
  }

  @Test
  void onlyActiveTasksWarnAndEachSideNamesTheOther() {
    var overlaps =
        ScopeOverlaps.of(
            List.of(
                task(1, "in_progress", "/docs"),
                task(2, "ready", "/docs/intro"),
                task(3, "completed", "/docs"),
                task(4, "pending", "/src")));
    assertThat(overlaps.get(1L)).extracting(ScopeOverlaps.Overlap::otherTask).containsExactly(2L);
    assertThat(overlaps.get(2L)).extracting(ScopeOverlaps.Overlap::otherTask).containsExactly(1L);
    assertThat(overlaps).doesNotContainKeys(3L, 4L);
    assertThat(overlaps.get(2L).get(0).text()).isEqualTo("/docs/intro overlaps #1 /docs");
  }

  static Task task(long id, String status, String scope) {
    return new Task(
        id,
        "Task " + id,
        "",
        status,
        null,
        null,
        null,
        null,
        List.of(),
        List.of(scope),
        null,
        0,
        null,
        null,
        0,
        null,
        null,
        null,
        null,
        "lead",
        false,
        1,
        Instant.EPOCH,
        Instant.EPOCH);
  }
}
