package io.agentteams.scheduler.teamagent.persistence;

import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.teamagent.domain.PushConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** A2A push-notification configs and the pushes owed to them. */
@Repository
public class PushConfigStore {

  private final DatabaseClient db;

  public PushConfigStore(DatabaseClient db) {
    this.db = db;
  }

  /** A push owed: the config, and the job revision and state it announces. */
  public record Due(PushConfig config, long revision, String state, int attempts) {}

  /** Saves the config (a config with the same id is replaced) and returns it. */
  public Mono<PushConfig> save(PushConfig config, String ownerId, Instant now) {
    DatabaseClient.GenericExecuteSpec spec =
        db.sql(
                """
                INSERT INTO a2a_push_config (job_id, config_id, owner_id, url, token, auth_scheme,
                    auth_credentials, created_at)
                VALUES (:job, :id, :owner, :url, :token, :scheme, :credentials, :now)
                ON CONFLICT (job_id, config_id) DO UPDATE
                  SET url = excluded.url, token = excluded.token,
                      auth_scheme = excluded.auth_scheme,
                      auth_credentials = excluded.auth_credentials
                """)
            .bind("job", config.jobId())
            .bind("id", config.id())
            .bind("owner", ownerId)
            .bind("url", config.url())
            .bind("now", JobStore.utc(now));
    spec = text(spec, "token", config.token());
    spec = text(spec, "scheme", config.authScheme());
    spec = text(spec, "credentials", config.authCredentials());
    return spec.fetch().rowsUpdated().thenReturn(config);
  }

  /** The job's configs, oldest first. */
  public Flux<PushConfig> list(UUID jobId) {
    return db.sql(
            "SELECT * FROM a2a_push_config WHERE job_id = :job ORDER BY created_at, config_id")
        .bind("job", jobId)
        .map((row, meta) -> config(row))
        .all();
  }

  /** One config of the job. */
  public Mono<PushConfig> find(UUID jobId, String id) {
    return db.sql("SELECT * FROM a2a_push_config WHERE job_id = :job AND config_id = :id")
        .bind("job", jobId)
        .bind("id", id)
        .map((row, meta) -> config(row))
        .one();
  }

  /** Deletes a config; true when there was one. Pushes still owed to it are dropped. */
  public Mono<Boolean> delete(UUID jobId, String id) {
    return db.sql(
            "DELETE FROM a2a_push_delivery WHERE job_id = :job AND config_id = :id AND NOT done")
        .bind("job", jobId)
        .bind("id", id)
        .fetch()
        .rowsUpdated()
        .then(
            db.sql("DELETE FROM a2a_push_config WHERE job_id = :job AND config_id = :id")
                .bind("job", jobId)
                .bind("id", id)
                .fetch()
                .rowsUpdated())
        .map(deleted -> deleted > 0);
  }

  /** How many configs the job has. */
  public Mono<Long> count(UUID jobId) {
    return db.sql("SELECT count(*) AS n FROM a2a_push_config WHERE job_id = :job")
        .bind("job", jobId)
        .map(row -> row.get("n", Long.class))
        .one();
  }

  /** Owes every config of the job a push of this revision (once, however often it is told). */
  public Mono<Long> owe(UUID jobId, long revision, String state, Instant now) {
    return db.sql(
            """
            INSERT INTO a2a_push_delivery (job_id, config_id, job_revision, state, next_attempt_at)
            SELECT job_id, config_id, :revision, :state, :now FROM a2a_push_config
            WHERE job_id = :job
            ON CONFLICT DO NOTHING
            """)
        .bind("job", jobId)
        .bind("revision", revision)
        .bind("state", state)
        .bind("now", JobStore.utc(now))
        .fetch()
        .rowsUpdated();
  }

  /**
   * Claims up to {@code max} due pushes for {@code lease}: no other replica takes them before it
   * ends, and one that dies with them leaves them due again when it does.
   */
  public Flux<Due> claimDue(int max, Instant now, Duration lease) {
    return db.sql(
            """
            UPDATE a2a_push_delivery d SET next_attempt_at = :until, attempts = d.attempts + 1
            FROM a2a_push_config c
            WHERE c.job_id = d.job_id AND c.config_id = d.config_id
              AND (d.job_id, d.config_id, d.job_revision) IN (
                SELECT job_id, config_id, job_revision FROM a2a_push_delivery
                WHERE NOT done AND next_attempt_at <= :now
                ORDER BY next_attempt_at, job_revision LIMIT :max FOR UPDATE SKIP LOCKED)
            RETURNING c.*, d.job_revision, d.state, d.attempts
            """)
        .bind("now", JobStore.utc(now))
        .bind("until", JobStore.utc(now.plus(lease)))
        .bind("max", max)
        .map(
            (row, meta) ->
                new Due(
                    config(row),
                    row.get("job_revision", Long.class),
                    row.get("state", String.class),
                    row.get("attempts", Integer.class)))
        .all();
  }

  /** The push is settled: sent, or given up, with the outcome. */
  public Mono<Void> settle(UUID jobId, String configId, long revision, String outcome) {
    return db.sql(
            "UPDATE a2a_push_delivery SET done = true, last_outcome = :outcome"
                + " WHERE job_id = :job AND config_id = :id AND job_revision = :revision")
        .bind("job", jobId)
        .bind("id", configId)
        .bind("revision", revision)
        .bind("outcome", outcome)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** The push failed and is tried again at {@code at}. */
  public Mono<Void> retryAt(
      UUID jobId, String configId, long revision, Instant at, String outcome) {
    return db.sql(
            "UPDATE a2a_push_delivery SET next_attempt_at = :at, last_outcome = :outcome"
                + " WHERE job_id = :job AND config_id = :id AND job_revision = :revision")
        .bind("job", jobId)
        .bind("id", configId)
        .bind("revision", revision)
        .bind("at", JobStore.utc(at))
        .bind("outcome", outcome)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Forgets configs and pushes of jobs that ended before {@code before}, at most {@code max}. */
  public Mono<Long> forgetFinished(Instant before, int max) {
    return db.sql(
            """
            WITH old AS (
                SELECT c.job_id FROM a2a_push_config c JOIN job j ON j.id = c.job_id
                WHERE j.state IN ('completed', 'failed', 'cancelled', 'interrupted') AND j.finished_at < :before
                LIMIT :max),
            gone AS (DELETE FROM a2a_push_delivery WHERE job_id IN (SELECT job_id FROM old))
            DELETE FROM a2a_push_config WHERE job_id IN (SELECT job_id FROM old)
            """)
        .bind("before", JobStore.utc(before))
        .bind("max", max)
        .fetch()
        .rowsUpdated();
  }

  private static PushConfig config(io.r2dbc.spi.Readable row) {
    return new PushConfig(
        row.get("job_id", UUID.class),
        row.get("config_id", String.class),
        row.get("url", String.class),
        row.get("token", String.class),
        row.get("auth_scheme", String.class),
        row.get("auth_credentials", String.class));
  }

  private static DatabaseClient.GenericExecuteSpec text(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable String value) {
    return value == null ? spec.bindNull(name, String.class) : spec.bind(name, value);
  }
}
