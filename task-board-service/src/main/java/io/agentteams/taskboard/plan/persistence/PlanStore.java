package io.agentteams.taskboard.plan.persistence;

import io.agentteams.taskboard.plan.domain.Plan;
import io.agentteams.taskboard.plan.domain.PlanNormalizer;
import io.agentteams.taskboard.plan.domain.PlanStatus;
import io.agentteams.taskboard.task.domain.TaskId;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** Plans and what their import did. */
@Repository
public class PlanStore {

  private static final String COLUMNS =
      "id, team_id, status, revision, imported_by, approved_by, task_keys, task_ids,"
          + " renamed_from, renamed_to, renamed_reason, generated, created_at, approved_at";

  private final DatabaseClient db;

  public PlanStore(DatabaseClient db) {
    this.db = db;
  }

  public Mono<Void> insert(Plan plan) {
    return db.sql(
            "INSERT INTO plan ("
                + COLUMNS
                + ") VALUES (:id, :team, :status, :revision, :importedBy, NULL, :keys, :ids,"
                + " :renamedFrom, :renamedTo, :renamedReason, :generated, :createdAt, NULL)")
        .bind("id", plan.id())
        .bind("team", plan.teamId())
        .bind("status", plan.status().wire())
        .bind("revision", plan.revision())
        .bind("importedBy", plan.importedBy())
        .bind("keys", plan.tasks().stream().map(Plan.Entry::key).toArray(String[]::new))
        .bind("ids", plan.tasks().stream().map(e -> e.taskId().value()).toArray(Long[]::new))
        .bind(
            "renamedFrom",
            plan.renamed().stream().map(PlanNormalizer.Rename::original).toArray(String[]::new))
        .bind(
            "renamedTo",
            plan.renamed().stream().map(PlanNormalizer.Rename::key).toArray(String[]::new))
        .bind(
            "renamedReason",
            plan.renamed().stream().map(r -> r.reason().name()).toArray(String[]::new))
        .bind("generated", plan.generated().toArray(String[]::new))
        .bind("createdAt", OffsetDateTime.ofInstant(plan.createdAt(), ZoneOffset.UTC))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** The plan of the team, locked until the transaction ends. */
  public Mono<Plan> lock(UUID team, UUID id) {
    return select(team, id, " FOR UPDATE");
  }

  public Mono<Plan> find(UUID team, UUID id) {
    return select(team, id, "");
  }

  private Mono<Plan> select(UUID team, UUID id, String locking) {
    return db.sql("SELECT " + COLUMNS + " FROM plan WHERE team_id = :team AND id = :id" + locking)
        .bind("team", team)
        .bind("id", id)
        .map(PlanStore::read)
        .one();
  }

  /** Writes an approval, compare-and-set on the revision the plan was read at. */
  public Mono<Boolean> approve(Plan plan, long loadedRevision) {
    return db.sql(
            """
            UPDATE plan SET status = :status, revision = :revision, approved_by = :approvedBy,
              approved_at = :approvedAt
            WHERE id = :id AND revision = :loadedRevision
            """)
        .bind("id", plan.id())
        .bind("status", plan.status().wire())
        .bind("revision", plan.revision())
        .bind("approvedBy", String.valueOf(plan.approvedBy()))
        .bind(
            "approvedAt",
            OffsetDateTime.ofInstant(requireInstant(plan.approvedAt()), ZoneOffset.UTC))
        .bind("loadedRevision", loadedRevision)
        .fetch()
        .rowsUpdated()
        .map(rows -> rows == 1);
  }

  private static Instant requireInstant(@Nullable Instant instant) {
    if (instant == null) {
      throw new IllegalArgumentException("an approved plan has an approval time");
    }
    return instant;
  }

  private static Plan read(Readable row) {
    String[] keys = row.get("task_keys", String[].class);
    Long[] ids = row.get("task_ids", Long[].class);
    List<Plan.Entry> tasks = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      tasks.add(new Plan.Entry(keys[i], TaskId.of(ids[i])));
    }
    String[] from = row.get("renamed_from", String[].class);
    String[] to = row.get("renamed_to", String[].class);
    String[] reason = row.get("renamed_reason", String[].class);
    List<PlanNormalizer.Rename> renamed = new ArrayList<>();
    for (int i = 0; i < from.length; i++) {
      renamed.add(
          new PlanNormalizer.Rename(from[i], to[i], PlanNormalizer.Reason.valueOf(reason[i])));
    }
    OffsetDateTime approvedAt = row.get("approved_at", OffsetDateTime.class);
    return new Plan(
        row.get("id", UUID.class),
        row.get("team_id", UUID.class),
        PlanStatus.fromWire(row.get("status", String.class)),
        row.get("revision", Long.class),
        row.get("imported_by", String.class),
        row.get("approved_by", String.class),
        tasks,
        renamed,
        Arrays.asList(row.get("generated", String[].class)),
        row.get("created_at", OffsetDateTime.class).toInstant(),
        approvedAt == null ? null : approvedAt.toInstant());
  }
}
