package io.agentteams.taskboard.task.web;

import io.agentteams.taskboard.task.domain.BlockedReason;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.domain.WriteScope;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A task as the API shows it; a deleted task shows as its tombstone. */
public record TaskView(
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
    @Nullable Instant deletedAt,
    @Nullable String deletedBy,
    long revision,
    Instant createdAt,
    Instant updatedAt) {

  public static TaskView of(Task task) {
    BlockedReason reason = task.blockedReason();
    Task.Deletion deletion = task.deletion();
    return new TaskView(
        task.id().value(),
        task.title(),
        task.definition().description(),
        task.status().wire(),
        reason == null ? null : reason.kind().wire(),
        reason == null ? null : reason.dependency().value(),
        reason == null ? null : reason.describe(),
        task.owner(),
        task.dependencies().stream().map(TaskId::value).toList(),
        task.writeScopes().stream().map(WriteScope::path).toList(),
        task.claim().phase(),
        task.claim().percent(),
        task.claim().claimedAt(),
        task.claim().heartbeatAt(),
        task.claim().heartbeatCount(),
        task.outcome().result(),
        task.outcome().error(),
        task.origin().planId(),
        task.origin().planKey(),
        task.origin().createdBy(),
        task.deleted(),
        deletion == null ? null : deletion.at(),
        deletion == null ? null : deletion.by(),
        task.revision(),
        task.origin().createdAt(),
        task.updatedAt());
  }
}
