package io.agentteams.scheduler.webhook.persistence;

import io.agentteams.scheduler.job.persistence.JobStore;
import java.time.Instant;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/**
 * The durable record of push attempts, one row per push message: an attempt is counted here in the
 * transaction that renews the job's lease for it, committed before the request leaves, so the
 * number of attempts stays bounded across retries, reconciliations and replicas that die mid-push.
 */
@Repository
public class PushDeliveryStore {

  private final DatabaseClient db;

  public PushDeliveryStore(DatabaseClient db) {
    this.db = db;
  }

  /** Counts one more attempt of the message and returns its number (1 for the first). */
  public Mono<Integer> beginAttempt(UUID jobId, String messageId, Instant now) {
    return db.sql(
            """
            INSERT INTO push_delivery (job_id, message_id, attempts, last_attempt_at, last_outcome)
            VALUES (:job, :message, 1, :now, 'sending')
            ON CONFLICT (job_id, message_id) DO UPDATE
              SET attempts = push_delivery.attempts + 1, last_attempt_at = excluded.last_attempt_at,
                  last_outcome = 'sending'
            RETURNING attempts
            """)
        .bind("job", jobId)
        .bind("message", messageId)
        .bind("now", JobStore.utc(now))
        .map(row -> row.get("attempts", Integer.class))
        .one();
  }

  /** Records how the message's last attempt ended. */
  public Mono<Void> recordOutcome(UUID jobId, String messageId, String outcome) {
    return db.sql(
            "UPDATE push_delivery SET last_outcome = :outcome"
                + " WHERE job_id = :job AND message_id = :message")
        .bind("job", jobId)
        .bind("message", messageId)
        .bind("outcome", outcome)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Forgets the deliveries of jobs that ended before {@code before}, at most {@code max}. */
  public Mono<Long> forgetFinished(Instant before, int max) {
    return db.sql(
            """
            DELETE FROM push_delivery WHERE job_id IN (
                SELECT d.job_id FROM push_delivery d JOIN job j ON j.id = d.job_id
                WHERE j.state IN ('completed', 'failed', 'cancelled', 'interrupted') AND j.finished_at < :before
                LIMIT :max)
            """)
        .bind("before", JobStore.utc(before))
        .bind("max", max)
        .fetch()
        .rowsUpdated();
  }
}
