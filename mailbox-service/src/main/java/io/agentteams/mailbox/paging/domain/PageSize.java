package io.agentteams.mailbox.paging.domain;

import org.jspecify.annotations.Nullable;

/**
 * How many records a page may hold.
 *
 * @param defaultSize the size of a page when the caller asks for none
 * @param maxSize the largest size a caller may ask for
 */
public record PageSize(int defaultSize, int maxSize) {

  public PageSize {
    if (defaultSize < 1 || maxSize < defaultSize) {
      throw new IllegalArgumentException("page sizes must satisfy 1 <= default <= max");
    }
  }

  /** Default 8, limit 1 to 20. */
  public static PageSize defaults() {
    return new PageSize(8, 20);
  }

  /**
   * The size to use for a request.
   *
   * @throws io.agentteams.platform.problem.DomainFailure when the requested limit is outside 1..max
   */
  public int resolve(@Nullable Integer limit) {
    if (limit == null) {
      return defaultSize;
    }
    if (limit < 1 || limit > maxSize) {
      throw PagingProblems.invalidLimit(maxSize, limit);
    }
    return limit;
  }
}
