package io.agentteams.mailbox.paging.domain;

import io.agentteams.platform.problem.DomainFailure;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Where the next page starts: the identity of the last record a page returned (its anchor), and the
 * fingerprint of the filters that page was read with. Clients treat it as opaque; it is not a
 * secret, and every read checks the caller's access again.
 *
 * @param anchor the record identity, e.g. {@code 42:<message id>}
 * @param fingerprint {@link SearchFilters#fingerprint} of the page that issued it
 */
public record PageCursor(String anchor, String fingerprint) {

  private static final String VERSION = "c1";
  private static final Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder decoder = Base64.getUrlDecoder();

  public PageCursor {
    if (anchor.isEmpty() || anchor.indexOf('|') >= 0 || fingerprint.indexOf('|') >= 0) {
      throw new IllegalArgumentException("cursor parts must be non-empty and free of '|'");
    }
  }

  /** The opaque form handed to clients. */
  public String encode() {
    return encoder.encodeToString(
        (VERSION + '|' + fingerprint + '|' + anchor).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reads a cursor a client returned and checks that it belongs to these filters.
   *
   * @throws DomainFailure 400 {@code invalid-cursor} when it is not a cursor, 400 {@code
   *     cursor-filter-mismatch} when it was issued for other filters or another scope
   */
  public static PageCursor decode(String encoded, String expectedFingerprint) {
    PageCursor cursor = parse(encoded);
    if (!cursor.fingerprint.equals(expectedFingerprint)) {
      throw PagingProblems.cursorFilterMismatch();
    }
    return cursor;
  }

  private static PageCursor parse(String encoded) {
    try {
      String text = new String(decoder.decode(encoded), StandardCharsets.UTF_8);
      List<String> parts = List.of(text.split("\\|", 3));
      if (parts.size() != 3 || !parts.get(0).equals(VERSION)) {
        throw invalid();
      }
      return new PageCursor(parts.get(2), parts.get(1));
    } catch (IllegalArgumentException e) {
      throw invalid();
    }
  }

  /** The anchor's parts split at the first {@code ':'}. */
  public List<String> anchorParts() {
    int colon = anchor.indexOf(':');
    if (colon < 0) {
      throw invalid();
    }
    return List.of(anchor.substring(0, colon), anchor.substring(colon + 1));
  }

  /** A problem for a cursor whose anchor cannot be read. */
  public static DomainFailure invalid() {
    return PagingProblems.invalidCursor();
  }
}
