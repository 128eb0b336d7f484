package io.agentteams.scheduler.job.persistence;

import io.agentteams.platform.outbox.Outbox;
import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.job.domain.Answer;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobKind;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.domain.Lease;
import io.agentteams.scheduler.job.domain.MemberRef;
import io.agentteams.scheduler.job.domain.Outcome;
import io.agentteams.scheduler.job.domain.Question;
import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores jobs. Changes to one job happen under its row lock ({@link #lock}). */
@Repository
public class JobStore {

  /** Every column a {@link Job} is restored from. */
  public static final String COLUMNS =
      """
      id, seq, team_id, owner_id, member, agent_id, conversation_id, kind, requester,
      requester_agent_id, requester_conversation_id, parent_job_id, chain_id, input,
      idempotency_scope, idempotency_key, state, revision, queue_position, resume, question_kind,
      question, answer_kind, answer, lease_token, lease_expires_at, lease_ttl_ms, lease_holder,
      reoffer_due, offers,
      admissions, admitted_by, run_id, result, result_truncated, error, tokens, cost_units,
      input_tokens, output_tokens, model, receipt_job_id, receipt_note, created_at, queued_at, admitted_at, started_at, finished_at,
      unknown_since
      """;

  private static final String INSERT =
      """
      INSERT INTO job (id, team_id, owner_id, member, agent_id, conversation_id, kind, requester,
          requester_agent_id, requester_conversation_id, parent_job_id, chain_id, input,
          idempotency_scope, idempotency_key, state, revision, queue_position, created_at,
          queued_at, updated_at)
      VALUES (:id, :team, :owner, :member, :agent, :conversation, :kind, :requester,
          :requesterAgent, :requesterConversation, :parent, :chain, :input, :scope, :key,
          :state, :revision, :queuePosition, :created, :created, :created)
      """;

  private static final String UPDATE =
      """
      UPDATE job SET state = :state, revision = :revision, queue_position = :queuePosition,
          queued_at = :queuedAt, resume = :resume, question_kind = :questionKind,
          question = :question, answer_kind = :answerKind, answer = :answer,
          lease_token = :leaseToken, lease_expires_at = :leaseExpiresAt, lease_ttl_ms = :leaseTtl,
          lease_holder = :leaseHolder,
          reoffer_due = :reofferDue, offers = :offers, admissions = :admissions,
          admitted_by = :admittedBy, admitted_at = :admittedAt, started_at = :startedAt,
          finished_at = :finishedAt, unknown_since = :unknownSince, run_id = :runId,
          result = :result, result_truncated = :truncated, error = :error, tokens = :tokens,
          cost_units = :costUnits, input_tokens = :inputTokens, output_tokens = :outputTokens,
          model = :model, receipt_job_id = :receiptJob, receipt_note = :receiptNote,
          updated_at = :now
      WHERE id = :id
      """;

  private final DatabaseClient db;

  public JobStore(DatabaseClient db) {
    this.db = db;
  }

  /** Inserts a new job. */
  public Mono<Void> insert(Job job) {
    JobSpec spec = job.spec();
    MemberRef requester = spec.requesterRef();
    DatabaseClient.GenericExecuteSpec insert =
        db.sql(INSERT)
            .bind("id", spec.id())
            .bind("team", spec.teamId())
            .bind("owner", spec.ownerId())
            .bind("member", spec.target().name())
            .bind("agent", spec.target().agentId())
            .bind("conversation", spec.target().conversationId())
            .bind("kind", spec.kind().wire())
            .bind("requester", spec.requester())
            .bind("chain", spec.chainId())
            .bind("input", spec.input())
            .bind("state", job.state().wire())
            .bind("revision", job.revision())
            .bind("queuePosition", job.queuePosition())
            .bind("created", utc(spec.createdAt()));
    insert = nullable(insert, "requesterAgent", requester == null ? null : requester.agentId());
    insert =
        nullable(
            insert, "requesterConversation", requester == null ? null : requester.conversationId());
    insert = nullable(insert, "parent", spec.parentJobId(), UUID.class);
    insert = nullable(insert, "scope", spec.idempotencyScope());
    insert = nullable(insert, "key", spec.idempotencyKey());
    return insert.fetch().rowsUpdated().then();
  }

  /** Writes a job's changed state; call it under the job's row lock. */
  public Mono<Void> update(Job job, Instant now) {
    Job.Stored s = job.stored();
    Job.Queueing queue = s.queue();
    Job.Dispatch dispatch = s.dispatch();
    Job.Run run = s.run();
    DatabaseClient.GenericExecuteSpec update =
        db.sql(UPDATE)
            .bind("id", s.spec().id())
            .bind("state", s.state().wire())
            .bind("revision", s.revision())
            .bind("queuePosition", queue.position())
            .bind("queuedAt", utc(queue.queuedAt()))
            .bind("resume", queue.resume())
            .bind("reofferDue", dispatch.reofferDue())
            .bind("offers", dispatch.offers())
            .bind("admissions", dispatch.admissions())
            .bind("truncated", run.outcome() != null && run.outcome().truncated())
            .bind("tokens", run.usage().tokens())
            .bind("costUnits", run.usage().costUnits())
            .bind("inputTokens", run.usage().inputTokens())
            .bind("outputTokens", run.usage().outputTokens())
            .bind("now", utc(now));
    Question question = queue.question();
    Answer answer = queue.answer();
    Lease lease = dispatch.lease();
    Outcome outcome = run.outcome();
    update = nullable(update, "model", run.usage().model());
    update = nullable(update, "questionKind", question == null ? null : question.kind().wire());
    update = nullable(update, "question", question == null ? null : question.content());
    update = nullable(update, "answerKind", answer == null ? null : answer.kind().wire());
    update = nullable(update, "answer", answer == null ? null : answer.content());
    update = nullable(update, "leaseToken", lease == null ? null : lease.token());
    update = nullableTime(update, "leaseExpiresAt", lease == null ? null : lease.expiresAt());
    update =
        nullable(update, "leaseTtl", lease == null ? null : lease.ttl().toMillis(), Long.class);
    update = nullable(update, "leaseHolder", lease == null ? null : lease.holder());
    update = nullable(update, "admittedBy", dispatch.admittedBy());
    update = nullableTime(update, "admittedAt", dispatch.admittedAt());
    update = nullableTime(update, "startedAt", run.startedAt());
    update = nullableTime(update, "finishedAt", run.finishedAt());
    update = nullableTime(update, "unknownSince", run.unknownSince());
    update = nullable(update, "runId", run.runId());
    update = nullable(update, "result", outcome == null ? null : outcome.answer());
    update = nullable(update, "error", outcome == null ? null : outcome.error());
    update = nullable(update, "receiptJob", s.receipt().jobId(), UUID.class);
    update = nullable(update, "receiptNote", s.receipt().note());
    return update.fetch().rowsUpdated().then();
  }

  /** The job, locked until the transaction ends; empty when there is none. */
  public Mono<Job> lock(UUID id) {
    return db.sql("SELECT " + COLUMNS + " FROM job WHERE id = :id FOR UPDATE")
        .bind("id", id)
        .map(JobStore::read)
        .one();
  }

  /**
   * Takes the team's event ordering lock for this transaction, waiting for it: the lock every
   * transition of the team's jobs takes after the job's own row and before its team's quota row,
   * for a submission that locks jobs and then the quota.
   */
  public Mono<Void> lockTeamEvents(UUID teamId) {
    return db.sql("SELECT pg_advisory_xact_lock(:namespace, hashtext(:team)) IS NULL AS locked")
        .bind("namespace", Outbox.KEY_LOCK_NAMESPACE)
        .bind("team", teamId.toString())
        .map(row -> row.get("locked", Boolean.class))
        .one()
        .then();
  }

  /** The job if nobody else holds its lock right now, locked until the transaction ends. */
  public Mono<Job> lockIfFree(UUID id) {
    return db.sql("SELECT " + COLUMNS + " FROM job WHERE id = :id FOR UPDATE SKIP LOCKED")
        .bind("id", id)
        .map(JobStore::read)
        .one();
  }

  /**
   * The unfinished job at the head of a conversation (the one it runs or will run next), if any.
   */
  public Mono<Job> conversationHead(String conversationId) {
    return db.sql(
            "SELECT "
                + COLUMNS
                + " FROM job WHERE conversation_id = :conversation"
                + " AND state NOT IN ('completed', 'failed', 'cancelled', 'interrupted')"
                + " ORDER BY conversation_rank, seq LIMIT 1")
        .bind("conversation", conversationId)
        .map(JobStore::read)
        .one();
  }

  public Mono<Job> find(UUID id) {
    return db.sql("SELECT " + COLUMNS + " FROM job WHERE id = :id")
        .bind("id", id)
        .map(JobStore::read)
        .one();
  }

  /** The jobs one idempotency key created, in creation order. */
  public Flux<Job> findByKey(UUID teamId, String scope, String key) {
    return db.sql(
            "SELECT "
                + COLUMNS
                + " FROM job WHERE team_id = :team AND idempotency_scope = :scope"
                + " AND idempotency_key = :key ORDER BY seq")
        .bind("team", teamId)
        .bind("scope", scope)
        .bind("key", key)
        .map(JobStore::read)
        .all();
  }

  /** A team's requests and hand-offs (not receipts), newest first, optionally older than a job. */
  public Flux<Job> findRequestsByTeam(UUID teamId, @Nullable UUID before, int limit) {
    String sql =
        "SELECT "
            + COLUMNS
            + " FROM job WHERE team_id = :team AND kind <> 'receipt'"
            + (before == null ? "" : " AND seq < (SELECT seq FROM job WHERE id = :before)")
            + " ORDER BY seq DESC LIMIT :limit";
    DatabaseClient.GenericExecuteSpec query = db.sql(sql).bind("team", teamId).bind("limit", limit);
    if (before != null) {
      query = query.bind("before", before);
    }
    return query.map(JobStore::read).all();
  }

  /** The receipts and hand-offs created by the given jobs. */
  public Flux<Job> findChildren(UUID[] parents) {
    return db.sql("SELECT " + COLUMNS + " FROM job WHERE parent_job_id = ANY(:parents)")
        .bind("parents", parents)
        .map(JobStore::read)
        .all();
  }

  /** A fingerprint of a team's jobs that changes whenever any of them changes. */
  public Mono<String> teamVersion(UUID teamId) {
    return db.sql(
            "SELECT count(*) AS n, coalesce(sum(revision), 0) AS revisions FROM job"
                + " WHERE team_id = :team")
        .bind("team", teamId)
        .map(row -> row.get("n", Long.class) + "-" + row.get("revisions", Number.class))
        .one();
  }

  /**
   * Puts a job at the place the interrupted head held in its conversation, so it runs next, ahead
   * of jobs that queued behind that head before it.
   */
  public Mono<Void> takePlaceOf(UUID jobId, UUID interruptedHead) {
    return db.sql(
            "UPDATE job SET conversation_rank ="
                + " (SELECT conversation_rank FROM job WHERE id = :head) WHERE id = :job")
        .bind("job", jobId)
        .bind("head", interruptedHead)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** The next position in the admission queue. */
  public Mono<Long> nextQueuePosition() {
    return db.sql("SELECT nextval('job_queue_position') AS position")
        .map(row -> row.get("position", Long.class))
        .one();
  }

  /** Releases the slot the job holds, if any. */
  public Mono<Void> releaseSlot(UUID jobId) {
    return db.sql("UPDATE admission_slot SET job_id = NULL, held_since = NULL WHERE job_id = :job")
        .bind("job", jobId)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Restores a job from a row with {@link #COLUMNS}. */
  public static Job read(Readable row) {
    String requesterAgent = row.get("requester_agent_id", String.class);
    String requesterConversation = row.get("requester_conversation_id", String.class);
    JobKind kind = JobKind.fromWire(row.get("kind", String.class));
    JobSpec spec =
        new JobSpec(
            row.get("id", UUID.class),
            row.get("team_id", UUID.class),
            row.get("owner_id", String.class),
            new MemberRef(
                row.get("member", String.class),
                row.get("agent_id", String.class),
                row.get("conversation_id", String.class)),
            kind,
            row.get("requester", String.class),
            requesterAgent == null || requesterConversation == null
                ? null
                : new MemberRef(
                    row.get("requester", String.class), requesterAgent, requesterConversation),
            row.get("parent_job_id", UUID.class),
            row.get("chain_id", UUID.class),
            row.get("input", String.class),
            row.get("idempotency_scope", String.class),
            row.get("idempotency_key", String.class),
            instant(row, "created_at"));
    String questionKind = row.get("question_kind", String.class);
    String answerKind = row.get("answer_kind", String.class);
    String leaseToken = row.get("lease_token", String.class);
    String result = row.get("result", String.class);
    String error = row.get("error", String.class);
    JobState state = JobState.fromWire(row.get("state", String.class));
    Job.Queueing queue =
        new Job.Queueing(
            row.get("queue_position", Long.class),
            instant(row, "queued_at"),
            Boolean.TRUE.equals(row.get("resume", Boolean.class)),
            questionKind == null
                ? null
                : new Question(InputKind.fromWire(questionKind), row.get("question", String.class)),
            answerKind == null
                ? null
                : new Answer(InputKind.fromWire(answerKind), row.get("answer", String.class)));
    Job.Dispatch dispatch =
        new Job.Dispatch(
            leaseToken == null
                ? null
                : new Lease(
                    leaseToken,
                    instant(row, "lease_expires_at"),
                    Duration.ofMillis(row.get("lease_ttl_ms", Long.class)),
                    row.get("lease_holder", String.class)),
            Boolean.TRUE.equals(row.get("reoffer_due", Boolean.class)),
            row.get("offers", Integer.class),
            row.get("admissions", Integer.class),
            row.get("admitted_by", String.class),
            nullableInstant(row, "admitted_at"));
    Job.Run run =
        new Job.Run(
            nullableInstant(row, "started_at"),
            nullableInstant(row, "finished_at"),
            nullableInstant(row, "unknown_since"),
            row.get("run_id", String.class),
            result == null && error == null
                ? null
                : new Outcome(
                    result, Boolean.TRUE.equals(row.get("result_truncated", Boolean.class)), error),
            new Usage(
                row.get("tokens", Long.class),
                row.get("cost_units", Long.class),
                row.get("input_tokens", Long.class),
                row.get("output_tokens", Long.class),
                row.get("model", String.class)));
    Job.Receipt receipt =
        new Job.Receipt(
            row.get("receipt_job_id", UUID.class), row.get("receipt_note", String.class));
    return Job.restore(
        new Job.Stored(
            spec, state, row.get("revision", Long.class), queue, dispatch, run, receipt));
  }

  public static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static Instant instant(Readable row, String column) {
    return row.get(column, OffsetDateTime.class).toInstant();
  }

  private static @Nullable Instant nullableInstant(Readable row, String column) {
    OffsetDateTime value = row.get(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  private static DatabaseClient.GenericExecuteSpec nullable(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable String value) {
    return nullable(spec, name, value, String.class);
  }

  private static <T> DatabaseClient.GenericExecuteSpec nullable(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable T value, Class<T> type) {
    return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
  }

  private static DatabaseClient.GenericExecuteSpec nullableTime(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable Instant value) {
    return value == null ? spec.bindNull(name, OffsetDateTime.class) : spec.bind(name, utc(value));
  }
}
