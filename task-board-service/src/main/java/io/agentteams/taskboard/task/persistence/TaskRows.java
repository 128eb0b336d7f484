package io.agentteams.taskboard.task.persistence;

import io.agentteams.taskboard.task.domain.BlockedReason;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.domain.TaskState;
import io.agentteams.taskboard.task.domain.TaskStatus;
import io.agentteams.taskboard.task.domain.WriteScope;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;

/** Maps tasks to and from rows of the {@code task} table. */
final class TaskRows {

  static final String COLUMNS =
      "id, title, description, state, status, held, blocked_reason, blocked_by, owner,"
          + " dependencies, write_scopes, phase, percent, claimed_at, heartbeat_at,"
          + " heartbeat_count, result, error, plan_id, plan_key, created_by, deleted_at,"
          + " deleted_by, revision, created_at, updated_at";

  /** The columns qualified with the alias {@code t}, for statements that join. */
  static final String COLUMNS_OF_T = COLUMNS.replaceAll("(^|, ?)(\\w)", "$1t.$2");

  static final String INSERT =
      "INSERT INTO task (team_id, "
          + COLUMNS
          + ") VALUES (:team, :id, :title, :description, :state, :status, :held, :blockedReason,"
          + " :blockedBy, :owner, :dependencies, :writeScopes, :phase, :percent, :claimedAt,"
          + " :heartbeatAt, :heartbeatCount, :result, :error, :planId, :planKey, :createdBy,"
          + " :deletedAt, :deletedBy, :revision, :createdAt, :updatedAt)";

  /** Compare-and-set: the row changes only if it is still at the revision the writer read. */
  static final String REPLACE =
      """
      UPDATE task SET title = :title, description = :description, state = :state,
        status = :status, held = :held, blocked_reason = :blockedReason, blocked_by = :blockedBy,
        owner = :owner, dependencies = :dependencies, write_scopes = :writeScopes,
        phase = :phase, percent = :percent, claimed_at = :claimedAt, heartbeat_at = :heartbeatAt,
        heartbeat_count = :heartbeatCount, result = :result, error = :error,
        plan_id = :planId, plan_key = :planKey, created_by = :createdBy,
        deleted_at = :deletedAt, deleted_by = :deletedBy, revision = :revision, created_at = :createdAt,
        updated_at = :updatedAt
      WHERE team_id = :team AND id = :id AND revision = :loadedRevision
      """;

  private TaskRows() {}

  static GenericExecuteSpec bind(GenericExecuteSpec spec, UUID team, Task task) {
    BlockedReason reason = task.blockedReason();
    spec =
        spec.bind("team", team)
            .bind("id", task.id().value())
            .bind("title", task.title())
            .bind("description", task.description())
            .bind("state", task.state().wire())
            .bind("status", task.status().wire())
            .bind("held", task.held())
            .bind(
                "dependencies",
                task.dependencies().stream().map(TaskId::value).toArray(Long[]::new))
            .bind(
                "writeScopes",
                task.writeScopes().stream().map(WriteScope::path).toArray(String[]::new))
            .bind("percent", task.percent())
            .bind("heartbeatCount", task.heartbeatCount())
            .bind("createdBy", task.createdBy())
            .bind("revision", task.revision())
            .bind("createdAt", time(task.createdAt()))
            .bind("updatedAt", time(task.updatedAt()));
    spec =
        nullable(spec, "blockedReason", reason == null ? null : reason.kind().wire(), String.class);
    spec =
        nullable(
            spec, "blockedBy", reason == null ? null : reason.dependency().value(), Long.class);
    spec = nullable(spec, "owner", task.owner(), String.class);
    spec = nullable(spec, "phase", task.phase(), String.class);
    spec = nullable(spec, "claimedAt", time(task.claimedAt()), OffsetDateTime.class);
    spec = nullable(spec, "heartbeatAt", time(task.heartbeatAt()), OffsetDateTime.class);
    spec = nullable(spec, "result", task.result(), String.class);
    spec = nullable(spec, "error", task.error(), String.class);
    spec = nullable(spec, "planId", task.planId(), UUID.class);
    spec = nullable(spec, "planKey", task.planKey(), String.class);
    spec = nullable(spec, "deletedAt", time(task.deletedAt()), OffsetDateTime.class);
    return nullable(spec, "deletedBy", task.deletedBy(), String.class);
  }

  static Task read(Readable row) {
    String reason = row.get("blocked_reason", String.class);
    Long[] dependencies = row.get("dependencies", Long[].class);
    String[] scopes = row.get("write_scopes", String[].class);
    return Task.builder()
        .id(TaskId.of(row.get("id", Long.class)))
        .title(row.get("title", String.class))
        .description(row.get("description", String.class))
        .state(TaskState.fromWire(row.get("state", String.class)))
        .status(TaskStatus.fromWire(row.get("status", String.class)))
        .held(Boolean.TRUE.equals(row.get("held", Boolean.class)))
        .blockedReason(
            reason == null
                ? null
                : new BlockedReason(
                    BlockedReason.Kind.fromWire(reason),
                    TaskId.of(row.get("blocked_by", Long.class))))
        .owner(row.get("owner", String.class))
        .dependencies(
            dependencies == null ? List.of() : Arrays.stream(dependencies).map(TaskId::of).toList())
        .writeScopes(
            scopes == null ? List.of() : Arrays.stream(scopes).map(WriteScope::new).toList())
        .phase(row.get("phase", String.class))
        .percent(row.get("percent", Integer.class))
        .claimedAt(instant(row.get("claimed_at", OffsetDateTime.class)))
        .heartbeatAt(instant(row.get("heartbeat_at", OffsetDateTime.class)))
        .heartbeatCount(row.get("heartbeat_count", Integer.class))
        .result(row.get("result", String.class))
        .error(row.get("error", String.class))
        .planId(row.get("plan_id", UUID.class))
        .planKey(row.get("plan_key", String.class))
        .createdBy(row.get("created_by", String.class))
        .deletedAt(instant(row.get("deleted_at", OffsetDateTime.class)))
        .deletedBy(row.get("deleted_by", String.class))
        .revision(row.get("revision", Long.class))
        .createdAt(row.get("created_at", OffsetDateTime.class).toInstant())
        .updatedAt(row.get("updated_at", OffsetDateTime.class).toInstant())
        .build();
  }

  static <T> GenericExecuteSpec nullable(
      GenericExecuteSpec spec, String name, @Nullable T value, Class<T> type) {
    return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
  }

  static @Nullable OffsetDateTime time(@Nullable Instant instant) {
    return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  static @Nullable Instant instant(@Nullable OffsetDateTime time) {
    return time == null ? null : time.toInstant();
  }
}
