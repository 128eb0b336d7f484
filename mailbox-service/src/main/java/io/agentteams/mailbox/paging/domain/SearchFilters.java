package io.agentteams.mailbox.paging.domain;

import io.agentteams.platform.bounds.TextBound;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * The filters of a history or result search, applied before paging. Blank values count as absent.
 *
 * @param memberId only records of this member
 * @param jobId only records of this job
 * @param query only records whose text holds this literal, case-insensitively
 */
public record SearchFilters(
    @Nullable String memberId, @Nullable String jobId, @Nullable String query) {

  public SearchFilters {
    memberId = blankToNull(memberId);
    jobId = blankToNull(jobId);
    query = blankToNull(query);
  }

  public static SearchFilters none() {
    return new SearchFilters(null, null, null);
  }

  /**
   * The filters with the query checked against its bound.
   *
   * @throws io.agentteams.platform.problem.DomainFailure when the query is too long
   */
  public static SearchFilters of(
      @Nullable String memberId,
      @Nullable String jobId,
      @Nullable String query,
      TextBound queryBound) {
    if (query != null) {
      queryBound.check(query);
    }
    for (String value : new String[] {memberId, jobId, query}) {
      if (value != null && value.indexOf('\u0000') >= 0) {
        throw PagingProblems.nulInFilters();
      }
    }
    return new SearchFilters(memberId, jobId, query);
  }

  /**
   * A short digest of these filters within a scope, stored in cursors so a cursor used with other
   * filters (or in another team) is recognised.
   */
  public String fingerprint(String scope) {
    String canonical =
        scope
            + '\u0000'
            + nullToEmpty(memberId)
            + '\u0000'
            + nullToEmpty(jobId)
            + '\u0000'
            + nullToEmpty(query);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static @Nullable String blankToNull(@Nullable String value) {
    return value == null || value.isBlank() ? null : value;
  }

  private static String nullToEmpty(@Nullable String value) {
    return value == null ? "\u0001" : value;
  }
}
