package io.agentteams.mailbox.paging.domain;

import io.agentteams.platform.problem.DomainFailure;
import java.util.Map;

/** The named refusals of paged reads: cursors, page sizes and search filters. */
public final class PagingProblems {

  private PagingProblems() {}

  /** A cursor this service did not issue, or whose anchor cannot be read. */
  public static DomainFailure invalidCursor() {
    return DomainFailure.invalid("invalid-cursor", "the cursor is not one this service issued");
  }

  /** A cursor issued for other filters or another scope. */
  public static DomainFailure cursorFilterMismatch() {
    return DomainFailure.invalid(
        "cursor-filter-mismatch",
        "this cursor belongs to a search with other filters; repeat the search without it");
  }

  public static DomainFailure invalidLimit(int max, int actual) {
    return DomainFailure.invalid(
        "invalid-limit",
        "limit must be between 1 and " + max + ", got " + actual,
        Map.of("min", 1, "max", max, "actual", actual));
  }

  public static DomainFailure nulInFilters() {
    return DomainFailure.invalid(
        "nul-character", "search filters must not contain the character U+0000");
  }
}
