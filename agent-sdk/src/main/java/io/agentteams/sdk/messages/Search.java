package io.agentteams.sdk.messages;

import org.jspecify.annotations.Nullable;

/**
 * Filters for history and results, applied before paging; every field is optional.
 *
 * @param memberId records of (or results by) one member
 * @param jobId records of one job
 * @param query a literal, case-insensitive text
 * @param limit page size, 1 to 20 (default 8)
 * @param cursor the previous page's {@code next_cursor}, with the same filters
 */
public record Search(
    @Nullable String memberId,
    @Nullable String jobId,
    @Nullable String query,
    @Nullable Integer limit,
    @Nullable String cursor) {

  /** The newest page, unfiltered. */
  public static final Search NEWEST = new Search(null, null, null, null, null);

  /** Records or results whose text contains {@code query}. */
  public static Search text(String query) {
    return new Search(null, null, query, null, null);
  }

  /** The next page of the same search. */
  public Search after(String nextCursor) {
    return new Search(memberId, jobId, query, limit, nextCursor);
  }
}
