package io.agentteams.sdk.state;

import org.jspecify.annotations.Nullable;

/**
 * Which entries to read; every field is optional.
 *
 * @param entryId one entry
 * @param kind entries of one kind
 * @param query entries whose title or content contains it (literally, ignoring case)
 * @param includeArchived archived entries too
 */
public record StateQuery(
    @Nullable Long entryId,
    @Nullable String kind,
    @Nullable String query,
    @Nullable Boolean includeArchived) {

  /** Every active entry. */
  public static final StateQuery ALL = new StateQuery(null, null, null, null);

  /** The active entries of one kind. */
  public static StateQuery ofKind(String kind) {
    return new StateQuery(null, kind, null, null);
  }
}
