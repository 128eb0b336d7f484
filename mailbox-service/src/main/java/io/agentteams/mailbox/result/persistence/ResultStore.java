package io.agentteams.mailbox.result.persistence;

import io.agentteams.mailbox.paging.domain.SearchFilters;
import io.agentteams.mailbox.paging.persistence.SearchBinds;
import io.agentteams.mailbox.result.domain.ResultRecord;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores result records and pages through them newest request first. */
@Repository
public class ResultStore {

  private static final String COLUMNS =
      "job_id, team_id, member, requester, status, parent_job_id, conversation_id, run_id,"
          + " request, answer, answer_truncated, created_at, started_at, finished_at";

  // A job's result is final; a redelivered or repeated event leaves the first record as it is.
  private static final String INSERT =
      """
      INSERT INTO result_record (job_id, team_id, member, requester, status, parent_job_id,
                                 conversation_id, run_id, request, answer, answer_truncated,
                                 created_at, started_at, finished_at)
      VALUES (:job, :team, :member, :requester, :status, :parent, :conversation, :run, :request,
              :answer, :answerTruncated, :created, :started, :finished)
      ON CONFLICT (job_id) DO NOTHING
      """;

  private final DatabaseClient db;

  public ResultStore(DatabaseClient db) {
    this.db = db;
  }

  /** Keeps a result record unless one for the job exists. */
  public Mono<Void> record(ResultRecord r) {
    DatabaseClient.GenericExecuteSpec insert =
        db.sql(INSERT)
            .bind("job", r.jobId())
            .bind("team", r.teamId())
            .bind("member", r.member())
            .bind("requester", r.requester())
            .bind("status", r.status())
            .bind("conversation", r.conversationId())
            .bind("request", r.request())
            .bind("answer", r.answer())
            .bind("answerTruncated", r.answerTruncated())
            .bind("created", utc(r.createdAt()))
            .bind("finished", utc(r.finishedAt()));
    insert = nullable(insert, "parent", r.parentJobId(), String.class);
    insert = nullable(insert, "run", r.runId(), String.class);
    insert =
        nullable(
            insert,
            "started",
            r.startedAt() == null ? null : utc(r.startedAt()),
            OffsetDateTime.class);
    return insert.fetch().rowsUpdated().then();
  }

  /** The team's record of the job. */
  public Mono<ResultRecord> find(UUID teamId, String jobId) {
    return db.sql(
            "SELECT " + COLUMNS + " FROM result_record WHERE team_id = :team AND job_id = :job")
        .bind("team", teamId)
        .bind("job", jobId)
        .map(ResultStore::read)
        .one();
  }

  /**
   * Records that pass the filters, newest request first, after an anchor. A member filter matches
   * the member that ran the job and the member that asked for it; a job filter matches the job and
   * the jobs it handed off; the query searches the request and the answer.
   *
   * @param after the (creation time, job id) of the last record of the previous page
   */
  public Flux<ResultRecord> page(
      UUID teamId, SearchFilters filters, @Nullable Position after, int limit) {
    StringBuilder sql =
        new StringBuilder("SELECT ")
            .append(COLUMNS)
            .append(" FROM result_record WHERE team_id = :team");
    if (after != null) {
      sql.append(" AND (created_at, job_id) < (:afterCreated, :afterJob)");
    }
    if (filters.memberId() != null) {
      sql.append(" AND (member = :member OR requester = :member)");
    }
    if (filters.jobId() != null) {
      sql.append(" AND (job_id = :job OR parent_job_id = :job)");
    }
    if (filters.query() != null) {
      sql.append(
          " AND (strpos(lower(request), lower(:query)) > 0"
              + " OR strpos(lower(answer), lower(:query)) > 0)");
    }
    sql.append(" ORDER BY created_at DESC, job_id DESC LIMIT :limit");
    DatabaseClient.GenericExecuteSpec spec =
        db.sql(sql.toString()).bind("team", teamId).bind("limit", limit);
    if (after != null) {
      spec = spec.bind("afterCreated", utc(after.createdAt())).bind("afterJob", after.jobId());
    }
    return SearchBinds.bind(spec, filters).map(ResultStore::read).all();
  }

  private static ResultRecord read(Readable row) {
    OffsetDateTime started = row.get("started_at", OffsetDateTime.class);
    return new ResultRecord(
        row.get("job_id", String.class),
        row.get("team_id", UUID.class),
        row.get("member", String.class),
        row.get("requester", String.class),
        row.get("status", String.class),
        row.get("parent_job_id", String.class),
        row.get("conversation_id", String.class),
        row.get("run_id", String.class),
        row.get("request", String.class),
        row.get("answer", String.class),
        Boolean.TRUE.equals(row.get("answer_truncated", Boolean.class)),
        row.get("created_at", OffsetDateTime.class).toInstant(),
        started == null ? null : started.toInstant(),
        row.get("finished_at", OffsetDateTime.class).toInstant());
  }

  private static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static DatabaseClient.GenericExecuteSpec nullable(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable Object value, Class<?> type) {
    return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
  }

  /**
   * A record's place in the newest-first order.
   *
   * @param createdAt the job's creation time, as stored (microseconds)
   * @param jobId the job, breaking ties
   */
  public record Position(Instant createdAt, String jobId) {}
}
