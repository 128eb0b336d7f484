package io.agentteams.team.state.domain;

import io.agentteams.contracts.team.StateEntry;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.jspecify.annotations.Nullable;

/**
 * One public state entry with the bookkeeping that makes publish and update retries safe.
 *
 * @param id team-local, allocated in order, never reused
 * @param kind immutable
 * @param title the title
 * @param content the content
 * @param status active or archived
 * @param createdBy the publishing member, or {@code owner} for the team's owner; immutable
 * @param createdAt when it was published
 * @param updatedBy the member that changed it last, or {@code owner}
 * @param updatedAt when it changed last
 * @param sourceConversationId the last author's conversation; empty when that was the owner
 * @param sourceJobId the job the last author acted in, if known
 * @param revision starts at 1, one more per update
 * @param requestId the publisher's request id
 * @param publishFingerprint what was published, so a retry can be told from a reuse
 * @param lastUpdateFingerprint who asked what at which revision in the latest update, so its
 *     identical retry succeeds without a new revision
 */
public record Entry(
    long id,
    EntryKind kind,
    String title,
    String content,
    EntryStatus status,
    String createdBy,
    Instant createdAt,
    String updatedBy,
    Instant updatedAt,
    String sourceConversationId,
    @Nullable String sourceJobId,
    long revision,
    String requestId,
    String publishFingerprint,
    @Nullable String lastUpdateFingerprint) {

  private static final DateTimeFormatter INSTANT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  /** The entry as the API and events show it; instants at fixed millisecond width. */
  public StateEntry view() {
    return new StateEntry(
        id,
        kind.wire(),
        title,
        content,
        status.wire(),
        createdBy,
        format(createdAt),
        updatedBy,
        format(updatedAt),
        sourceConversationId,
        sourceJobId,
        revision);
  }

  /** An instant as entries show it, e.g. {@code 2026-11-30T08:00:00.000Z}. */
  public static String format(Instant instant) {
    return INSTANT.format(instant);
  }
}
