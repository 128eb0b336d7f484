package io.agentteams.taskboard.task.domain;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where the next page of a task listing starts: after the id of the last task the previous page
 * held, for the filter that page was read with. Task ids are allocated under the board's row lock
 * and commit in id order, so a task created while a client pages has a larger id than every task
 * already listed and can never slip in behind a cursor. Clients treat the cursor as opaque; it is
 * not a secret, and every read checks the caller's access again.
 *
 * @param after the id of the last task listed
 * @param fingerprint {@link TaskFilter#fingerprint} of the listing that issued it
 */
public record TaskCursor(TaskId after, String fingerprint) {

  private static final String VERSION = "t1";

  public TaskCursor {
    if (fingerprint.isEmpty() || fingerprint.indexOf('|') >= 0) {
      throw new IllegalArgumentException("a cursor's fingerprint is non-empty and free of '|'");
    }
  }

  /** The opaque form handed to clients. */
  public String encode() {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(
            (VERSION + '|' + fingerprint + '|' + after.value()).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reads a cursor a client returned and checks that it belongs to this listing.
   *
   * @throws io.agentteams.platform.problem.DomainFailure 400 {@code invalid-cursor} when it is not
   *     a cursor this service issued, 400 {@code cursor-filter-mismatch} when it was issued for
   *     another filter or team
   */
  public static TaskCursor decode(String encoded, String expectedFingerprint) {
    TaskCursor cursor;
    try {
      String text = new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8);
      String[] parts = text.split("\\|", -1);
      if (parts.length != 3 || !parts[0].equals(VERSION)) {
        throw BoardProblems.invalidCursor();
      }
      cursor = new TaskCursor(TaskId.of(Long.parseLong(parts[2])), parts[1]);
    } catch (IllegalArgumentException e) {
      // Not base64, not a number, an id out of range or an empty fingerprint.
      throw BoardProblems.invalidCursor();
    }
    if (!cursor.fingerprint.equals(expectedFingerprint)) {
      throw BoardProblems.cursorFilterMismatch();
    }
    return cursor;
  }
}
