package io.agentteams.taskboard.task.persistence;

import io.agentteams.taskboard.task.domain.BlockedReason;
import io.agentteams.taskboard.task.domain.Derived;
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
    Task.Definition definition = task.definition();
    Task.Claim claim = task.claim();
    Task.Origin origin = task.origin();
    Task.Deletion deletion = task.deletion();
    spec =
        spec.bind("team", team)
            .bind("id", task.id().value())
            .bind("title", definition.title())
            .bind("description", definition.description())
            .bind("state", task.state().wire())
            .bind("status", task.status().wire())
            .bind("held", task.held())
            .bind(
                "dependencies",
                definition.dependencies().stream().map(TaskId::value).toArray(Long[]::new))
            .bind(
                "writeScopes",
                definition.writeScopes().stream().map(WriteScope::path).toArray(String[]::new))
            .bind("percent", claim.percent())
            .bind("heartbeatCount", claim.heartbeatCount())
            .bind("createdBy", origin.createdBy())
            .bind("revision", task.revision())
            .bind("createdAt", time(origin.createdAt()))
            .bind("updatedAt", time(task.updatedAt()));
    spec =
        nullable(spec, "blockedReason", reason == null ? null : reason.kind().wire(), String.class);
    spec =
        nullable(
            spec, "blockedBy", reason == null ? null : reason.dependency().value(), Long.class);
    spec = nullable(spec, "owner", claim.owner(), String.class);
    spec = nullable(spec, "phase", claim.phase(), String.class);
    spec = nullable(spec, "claimedAt", time(claim.claimedAt()), OffsetDateTime.class);
    spec = nullable(spec, "heartbeatAt", time(claim.heartbeatAt()), OffsetDateTime.class);
    spec = nullable(spec, "result", task.outcome().result(), String.class);
    spec = nullable(spec, "error", task.outcome().error(), String.class);
    spec = nullable(spec, "planId", origin.planId(), UUID.class);
    spec = nullable(spec, "planKey", origin.planKey(), String.class);
    spec =
        nullable(
            spec, "deletedAt", deletion == null ? null : time(deletion.at()), OffsetDateTime.class);
    return nullable(spec, "deletedBy", deletion == null ? null : deletion.by(), String.class);
  }

  static Task read(Readable row) {
    String reason = row.get("blocked_reason", String.class);
    Long[] dependencies = row.get("dependencies", Long[].class);
    String[] scopes = row.get("write_scopes", String[].class);
    Instant deletedAt = instant(row.get("deleted_at", OffsetDateTime.class));
    Task.Definition definition =
        new Task.Definition(
            row.get("title", String.class),
            row.get("description", String.class),
            dependencies == null ? List.of() : Arrays.stream(dependencies).map(TaskId::of).toList(),
            scopes == null ? List.of() : Arrays.stream(scopes).map(WriteScope::new).toList());
    Task.Claim claim =
        new Task.Claim(
            row.get("owner", String.class),
            instant(row.get("claimed_at", OffsetDateTime.class)),
            instant(row.get("heartbeat_at", OffsetDateTime.class)),
            row.get("heartbeat_count", Integer.class),
            row.get("phase", String.class),
            row.get("percent", Integer.class));
    Task.Standing standing =
        new Task.Standing(
            TaskState.fromWire(row.get("state", String.class)),
            Boolean.TRUE.equals(row.get("held", Boolean.class)),
            new Derived(
                TaskStatus.fromWire(row.get("status", String.class)),
                reason == null
                    ? null
                    : new BlockedReason(
                        BlockedReason.Kind.fromWire(reason),
                        TaskId.of(row.get("blocked_by", Long.class)))),
            claim,
            new Task.Outcome(row.get("result", String.class), row.get("error", String.class)));
    Task.Origin origin =
        new Task.Origin(
            row.get("created_by", String.class),
            row.get("created_at", OffsetDateTime.class).toInstant(),
            row.get("plan_id", UUID.class),
            row.get("plan_key", String.class));
    return new Task(
        TaskId.of(row.get("id", Long.class)),
        definition,
        standing,
        origin,
        deletedAt == null
            ? null
            : new Task.Deletion(deletedAt, row.get("deleted_by", String.class)),
        row.get("revision", Long.class),
        row.get("updated_at", OffsetDateTime.class).toInstant());
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
