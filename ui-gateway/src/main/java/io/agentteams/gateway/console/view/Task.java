package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A task of the board as the API shows it. */
public record Task(
    long id,
    String title,
    String description,
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
    String createdBy,
    boolean deleted,
    long revision,
    Instant createdAt,
    Instant updatedAt) {

  public Task {
    dependencies = dependencies == null ? List.of() : List.copyOf(dependencies);
    writeScopes = writeScopes == null ? List.of() : List.copyOf(writeScopes);
  }

  /** Whether the task counts as active work (its write scopes can overlap others'). */
  public boolean active() {
    return switch (status) {
      case "completed", "failed", "cancelled", "deleted" -> false;
      default -> true;
    };
  }

  /** The status as a person reads it. */
  public String statusLabel() {
    return switch (status) {
      case "in_progress" -> "in progress";
      case "awaiting_approval" -> "awaiting approval";
      default -> status;
    };
  }

  /** The blocked reason as a person reads it. */
  public @Nullable String blockedText() {
    if (blockedDetail != null && !blockedDetail.isBlank()) {
      return blockedDetail;
    }
    if (blockedReason == null) {
      return null;
    }
    return blockedReason.replace('_', ' ') + (blockedBy == null ? "" : " #" + blockedBy);
  }
}
