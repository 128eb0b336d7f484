package io.agentteams.gateway.console.session;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What the gateway keeps of one signed-in console session, on the sessions topic that every replica
 * reads ({@link SessionRecords}). It is keyed by a hash of the cookie's session id, never the id
 * itself, so reading the topic does not hand out sessions.
 *
 * @param key the SHA-256 of the session id (URL-safe Base64)
 * @param ownerId who signed in
 * @param startedAt when they signed in
 * @param expiresAt when the session ends at the latest (the absolute expiry)
 * @param lastSeenAt the last request this replica or another one reported
 * @param endedAt when it was signed out, or null while it lasts
 */
public record SessionRecord(
    String key,
    String ownerId,
    Instant startedAt,
    Instant expiresAt,
    Instant lastSeenAt,
    @Nullable Instant endedAt) {

  /** Whether the session still admits requests at {@code now}, given the idle timeout. */
  public boolean admits(Instant now, Duration idle, @Nullable Instant ownerEndedAt) {
    return endedAt == null
        && now.isBefore(expiresAt)
        && now.isBefore(lastSeenAt.plus(idle))
        && (ownerEndedAt == null || startedAt.isAfter(ownerEndedAt));
  }

  /** The same session, seen at {@code now}. */
  public SessionRecord seen(Instant now) {
    return now.isAfter(lastSeenAt)
        ? new SessionRecord(key, ownerId, startedAt, expiresAt, now, endedAt)
        : this;
  }

  /** The same session, signed out at {@code now}. */
  public SessionRecord ended(Instant now) {
    return new SessionRecord(key, ownerId, startedAt, expiresAt, lastSeenAt, now);
  }
}
