package io.agentteams.sdk.state;

import org.jspecify.annotations.Nullable;

/**
 * A compare-and-set change to an entry; fields left null stay as they are.
 *
 * @param expectedRevision the revision last read
 * @param kind a new kind
 * @param title a new title
 * @param content new content
 * @param status active or archived
 */
public record EntryChange(
    long expectedRevision,
    @Nullable String kind,
    @Nullable String title,
    @Nullable String content,
    @Nullable String status) {

  /** New content for the entry at the revision last read. */
  public static EntryChange content(long expectedRevision, String content) {
    return new EntryChange(expectedRevision, null, null, content, null);
  }
}
