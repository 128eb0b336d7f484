package io.agentteams.taskboard.plan.persistence;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** Which plans team runs submitted (a run's plan has the run's id). */
@Repository
public class RunPlanStore {

  private final DatabaseClient db;

  public RunPlanStore(DatabaseClient db) {
    this.db = db;
  }

  /** Marks the plan, just inserted in this transaction, as the run's. */
  public Mono<Void> insert(UUID planId, UUID teamId, String planner, Instant now) {
    return db.sql(
            """
            INSERT INTO run_plan (plan_id, team_id, planner, created_at)
            VALUES (:plan, :team, :planner, :now)
            """)
        .bind("plan", planId)
        .bind("team", teamId)
        .bind("planner", planner)
        .bind("now", OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Whether a team run of that team submitted the plan. */
  public Mono<Boolean> isRunPlan(UUID planId, UUID teamId) {
    return db.sql("SELECT 1 FROM run_plan WHERE plan_id = :plan AND team_id = :team")
        .bind("plan", planId)
        .bind("team", teamId)
        .map(row -> true)
        .one()
        .defaultIfEmpty(false);
  }
}
