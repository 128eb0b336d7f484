package io.agentteams.team.state.domain;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Which entries a read wants.
 *
 * @param entryId only this entry
 * @param kind only entries of this kind
 * @param text only entries whose title or content contains this text, literally and ignoring case
 * @param includeArchived whether archived entries are included
 */
public record StateQuery(
    @Nullable Long entryId,
    @Nullable EntryKind kind,
    @Nullable String text,
    boolean includeArchived) {

  /** Every active entry. */
  public static StateQuery active() {
    return new StateQuery(null, null, null, false);
  }

  boolean matches(Entry entry) {
    if (entryId != null && entry.id() != entryId) {
      return false;
    }
    if (kind != null && entry.kind() != kind) {
      return false;
    }
    if (!includeArchived && entry.status() == EntryStatus.ARCHIVED) {
      return false;
    }
    if (text != null && !text.isEmpty()) {
      String needle = fold(text);
      return fold(entry.title()).contains(needle) || fold(entry.content()).contains(needle);
    }
    return true;
  }

  private static String fold(String value) {
    return value.toLowerCase(Locale.ROOT);
  }
}
