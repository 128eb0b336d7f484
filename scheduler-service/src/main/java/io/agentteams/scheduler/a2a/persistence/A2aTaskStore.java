package io.agentteams.scheduler.a2a.persistence;

import io.agentteams.scheduler.job.persistence.JobStore;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The durable record of each job's A2A exchange: the message about to be sent is written here (and
 * committed with the job's lease renewal) before its request leaves, and the agent's task id as
 * soon as the agent names it. A replica that takes over a job whose outcome is unknown reads here
 * what was sent and which task to ask about.
 */
@Repository
public class A2aTaskStore {

  private final DatabaseClient db;

  public A2aTaskStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * What was recorded before this message.
   *
   * @param previousMessageId the message recorded before, if any: equal to the one being sent when
   *     an earlier attempt of it may have reached the agent
   * @param taskId the agent's task, if it named one
   */
  public record Prior(@Nullable String previousMessageId, @Nullable String taskId) {}

  /** A task to cancel at its agent, for a job cancelled here. */
  public record ToCancel(UUID jobId, String ownerId, String agentId, String taskId) {}

  /** Records the message about to be sent, and returns what was recorded before it. */
  public Mono<Prior> recordMessage(UUID jobId, String contextId, String messageId, Instant now) {
    return db.sql(
            """
            WITH previous AS (SELECT message_id FROM a2a_task WHERE job_id = :job)
            INSERT INTO a2a_task (job_id, context_id, message_id, updated_at)
            VALUES (:job, :context, :message, :now)
            ON CONFLICT (job_id) DO UPDATE
              SET message_id = excluded.message_id, updated_at = excluded.updated_at
            RETURNING (SELECT message_id FROM previous) AS previous_message, task_id
            """)
        .bind("job", jobId)
        .bind("context", contextId)
        .bind("message", messageId)
        .bind("now", JobStore.utc(now))
        .map(
            row ->
                new Prior(
                    row.get("previous_message", String.class), row.get("task_id", String.class)))
        .one();
  }

  /** Records the task the agent named, and the state it was last seen in. */
  public Mono<Void> recordTask(UUID jobId, String taskId, String state, Instant now) {
    return db.sql(
            "UPDATE a2a_task SET task_id = :task, task_state = :state, updated_at = :now"
                + " WHERE job_id = :job")
        .bind("job", jobId)
        .bind("task", taskId)
        .bind("state", state)
        .bind("now", JobStore.utc(now))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /**
   * Tasks of jobs cancelled here that their agents have not been asked to cancel yet, at most
   * {@code max}; tasks already seen ended are left alone.
   */
  public Flux<ToCancel> toCancel(int max) {
    return db.sql(
            """
            SELECT t.job_id, j.owner_id, j.agent_id, t.task_id FROM a2a_task t
            JOIN job j ON j.id = t.job_id
            WHERE t.task_id IS NOT NULL AND NOT t.cancel_sent
              AND j.state IN ('cancelled', 'interrupted')
              AND (t.task_state IS NULL OR t.task_state NOT IN
                   ('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED',
                    'TASK_STATE_REJECTED'))
            LIMIT :max
            """)
        .bind("max", max)
        .map(
            row ->
                new ToCancel(
                    row.get("job_id", UUID.class),
                    row.get("owner_id", String.class),
                    row.get("agent_id", String.class),
                    row.get("task_id", String.class)))
        .all();
  }

  /** Records that the agent was asked to cancel the job's task (CancelTask is idempotent). */
  public Mono<Void> cancelSent(UUID jobId, Instant now) {
    return db.sql("UPDATE a2a_task SET cancel_sent = true, updated_at = :now WHERE job_id = :job")
        .bind("job", jobId)
        .bind("now", JobStore.utc(now))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Forgets the records of jobs that ended before {@code before}, at most {@code max}. */
  public Mono<Long> forgetFinished(Instant before, int max) {
    return db.sql(
            """
            DELETE FROM a2a_task WHERE job_id IN (
                SELECT t.job_id FROM a2a_task t JOIN job j ON j.id = t.job_id
                WHERE j.state IN ('completed', 'failed', 'cancelled', 'interrupted') AND j.finished_at < :before
                  AND (j.state NOT IN ('cancelled', 'interrupted') OR t.cancel_sent
                       OR t.task_id IS NULL)
                LIMIT :max)
            """)
        .bind("before", JobStore.utc(before))
        .bind("max", max)
        .fetch()
        .rowsUpdated();
  }
}
