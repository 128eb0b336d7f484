package io.agentteams.sdk.tasks;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A task on a team's board.
 *
 * @param id the team-local id, never reused
 * @param title its title
 * @param description what it is about
 * @param status ready, pending, blocked, in_progress, completed, failed, cancelled or
 *     awaiting_approval
 * @param blockedReason why it is blocked
 * @param blockedBy the dependency that blocks it
 * @param blockedDetail more about the block
 * @param owner the member that claimed (or was given) it
 * @param dependencies tasks that must complete first
 * @param writeScopes normalised path prefixes it writes to
 * @param phase progress: the phase its claimant reported
 * @param percent progress: 0 to 100
 * @param claimedAt when it was claimed
 * @param lastHeartbeatAt the claimant's last heartbeat
 * @param heartbeatCount heartbeats since the claim
 * @param result the result it was completed with
 * @param error the error it failed with
 * @param planId the plan it came from, if any
 * @param planKey its id in that plan
 * @param createdBy the member that created it
 * @param deleted whether it is a tombstone
 * @param deletedAt when it was deleted
 * @param deletedBy who deleted it
 * @param revision increases with every change; mutations name the revision last read
 * @param createdAt when it was created
 * @param updatedAt when it last changed
 */
public record Task(
    long id,
    String title,
    @Nullable String description,
    String status,
    @Nullable String blockedReason,
    @Nullable Long blockedBy,
    @Nullable String blockedDetail,
    @Nullable String owner,
    List<Long> dependencies,
    List<String> writeScopes,
    @Nullable String phase,
    int percent,
    @Nullable Instant claimedAt,
    @Nullable Instant lastHeartbeatAt,
    int heartbeatCount,
    @Nullable String result,
    @Nullable String error,
    @Nullable UUID planId,
    @Nullable String planKey,
    @Nullable String createdBy,
    boolean deleted,
    @Nullable Instant deletedAt,
    @Nullable String deletedBy,
    long revision,
    @Nullable Instant createdAt,
    @Nullable Instant updatedAt) {

  /** Whether it may be claimed now: ready and without an owner. */
  public boolean claimable() {
    return "ready".equals(status) && owner == null;
  }

  /** Whether it is in progress under that member's claim. */
  public boolean claimedBy(String member) {
    return "in_progress".equals(status) && member.equals(owner);
  }
}
