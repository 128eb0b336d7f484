package io.agentteams.team.jobs.persistence;

import io.agentteams.contracts.scheduler.JobStateChanged;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/**
 * The scheduler's jobs as its {@code JobStateChanged} events describe them, for the rule that a
 * team with queued, running or waiting jobs cannot be deleted.
 */
@Repository
public class SchedulerJobs {

  // The team row is key-share-locked so an event and a delete of the team (which locks the row for
  // update) are applied one after the other, while the team's public-state writes (which lock it
  // for no-key update) go on beside it; events for teams this service does not hold (or deleted
  // ones) change nothing.
  private static final String APPLY =
      """
      WITH live AS (
          SELECT id FROM team WHERE id = :team AND status <> 'deleted' FOR KEY SHARE)
      INSERT INTO scheduler_job (job_id, team_id, member, state, unfinished, job_revision)
      SELECT :job, live.id, :member, :state, :unfinished, :revision FROM live
      ON CONFLICT (job_id) DO UPDATE
          SET state = excluded.state, unfinished = excluded.unfinished, member = excluded.member,
              job_revision = excluded.job_revision, updated_at = now()
          WHERE scheduler_job.job_revision < excluded.job_revision
      """;

  private final DatabaseClient db;

  public SchedulerJobs(DatabaseClient db) {
    this.db = db;
  }

  /** Applies a job's transition unless the projection already holds a later one. */
  public Mono<Void> apply(UUID teamId, JobStateChanged change) {
    return db.sql(APPLY)
        .bind("team", teamId)
        .bind("job", change.jobId())
        .bind("member", change.member())
        .bind("state", change.state())
        .bind("unfinished", JobStateChanged.isUnfinished(change.state()))
        .bind("revision", change.jobRevision())
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** How many of the team's jobs are queued, admitted, running, waiting or unknown. */
  public Mono<Long> countUnfinished(UUID teamId) {
    return db.sql("SELECT count(*) AS n FROM scheduler_job WHERE team_id = :team AND unfinished")
        .bind("team", teamId)
        .map(row -> row.get("n", Long.class))
        .one();
  }

  /** Forgets a deleted team's jobs. */
  public Mono<Void> forget(UUID teamId) {
    return db.sql("DELETE FROM scheduler_job WHERE team_id = :team")
        .bind("team", teamId)
        .fetch()
        .rowsUpdated()
        .then();
  }
}
