package io.agentteams.scheduler.run.persistence;

import io.agentteams.scheduler.run.domain.JobOrder;
import io.agentteams.scheduler.run.domain.PlanTask;
import io.agentteams.scheduler.run.domain.Run;
import io.agentteams.scheduler.run.domain.RunEntry;
import io.agentteams.scheduler.run.domain.RunOptions;
import io.agentteams.scheduler.run.domain.RunState;
import io.agentteams.scheduler.run.domain.RunTask;
import io.agentteams.scheduler.run.domain.TaskState;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores runs with their tasks, jobs and timelines. A run changes only under its row lock. */
@Repository
public class RunStore {

  /** A job a run created, and what for. */
  public record RunJob(UUID jobId, UUID runId, JobOrder.Role role, @Nullable String taskKey) {}

  private static final String COLUMNS =
      """
      id, team_id, owner_id, objective, planner, synthesiser, max_rounds, concurrency,
      continue_on_member_error, require_plan_approval, on_unreadable_plan, state, round,
      plan_fallback, planner_job_id, synthesis_job_id, result, reason, sequence, created_at,
      updated_at, finished_at
      """;

  private final DatabaseClient db;

  public RunStore(DatabaseClient db) {
    this.db = db;
  }

  /** Inserts a new run (without tasks: it has no plan yet). */
  public Mono<Void> insert(Run run, @Nullable String idempotencyKey) {
    Run.Stored s = run.stored();
    RunOptions o = s.options();
    DatabaseClient.GenericExecuteSpec insert =
        db.sql(
                """
                INSERT INTO team_run (id, team_id, owner_id, objective, planner, synthesiser,
                    max_rounds, concurrency, continue_on_member_error, require_plan_approval,
                    on_unreadable_plan, state, round, sequence, idempotency_key, created_at,
                    updated_at)
                VALUES (:id, :team, :owner, :objective, :planner, :synthesiser, :maxRounds,
                    :concurrency, :continue, :approval, :unreadable, :state, :round, :sequence,
                    :key, :created, :created)
                """)
            .bind("id", s.id())
            .bind("team", s.teamId())
            .bind("owner", s.ownerId())
            .bind("objective", s.objective())
            .bind("planner", o.planner())
            .bind("synthesiser", o.synthesiser())
            .bind("maxRounds", o.maxRounds())
            .bind("concurrency", o.concurrency())
            .bind("continue", o.continueOnMemberError())
            .bind("approval", o.requirePlanApproval())
            .bind("unreadable", o.onUnreadablePlan().wire())
            .bind("state", s.state().wire())
            .bind("round", s.round())
            .bind("sequence", s.sequence())
            .bind("created", utc(s.createdAt()));
    insert = nullable(insert, "key", idempotencyKey, String.class);
    return insert.fetch().rowsUpdated().then();
  }

  /**
   * Writes a run's changed state and tasks, and appends the timeline entries it recorded; call it
   * under the run's row lock.
   */
  public Mono<Void> update(Run run) {
    Run.Stored s = run.stored();
    DatabaseClient.GenericExecuteSpec update =
        db.sql(
                """
                UPDATE team_run SET state = :state, round = :round, plan_fallback = :fallback,
                    planner_job_id = :planner, synthesis_job_id = :synthesis, result = :result,
                    reason = :reason, sequence = :sequence, updated_at = :updated,
                    finished_at = :finished
                WHERE id = :id
                """)
            .bind("id", s.id())
            .bind("state", s.state().wire())
            .bind("round", s.round())
            .bind("fallback", s.planFallback())
            .bind("sequence", s.sequence())
            .bind("updated", utc(s.updatedAt()));
    update = nullable(update, "planner", s.plannerJobId(), UUID.class);
    update = nullable(update, "synthesis", s.synthesisJobId(), UUID.class);
    update = nullable(update, "result", s.result(), String.class);
    update = nullable(update, "reason", s.reason(), String.class);
    update =
        nullable(
            update,
            "finished",
            s.finishedAt() == null ? null : utc(s.finishedAt()),
            OffsetDateTime.class);
    return update
        .fetch()
        .rowsUpdated()
        .thenMany(Flux.range(0, s.tasks().size()))
        .concatMap(i -> upsertTask(s.id(), i, s.tasks().get(i)))
        .thenMany(Flux.fromIterable(run.entries()))
        .concatMap(entry -> appendEntry(s.id(), entry))
        .then();
  }

  private Mono<Void> upsertTask(UUID runId, int position, RunTask task) {
    PlanTask d = task.definition();
    DatabaseClient.GenericExecuteSpec upsert =
        db.sql(
                """
                INSERT INTO run_task (run_id, key, position, assignee, title, instruction,
                    dependencies, state, round, job_id, result, error)
                VALUES (:run, :key, :position, :assignee, :title, :instruction, :dependencies,
                    :state, :round, :job, :result, :error)
                ON CONFLICT (run_id, key) DO UPDATE SET state = EXCLUDED.state,
                    round = EXCLUDED.round, job_id = EXCLUDED.job_id, result = EXCLUDED.result,
                    error = EXCLUDED.error
                """)
            .bind("run", runId)
            .bind("key", d.key())
            .bind("position", position)
            .bind("assignee", d.assignee())
            .bind("title", d.title())
            .bind("instruction", d.instruction())
            .bind("dependencies", d.dependencies().toArray(String[]::new))
            .bind("state", task.state().wire())
            .bind("round", task.round());
    upsert = nullable(upsert, "job", task.jobId(), UUID.class);
    upsert = nullable(upsert, "result", task.result(), String.class);
    upsert = nullable(upsert, "error", task.error(), String.class);
    return upsert.fetch().rowsUpdated().then();
  }

  private Mono<Void> appendEntry(UUID runId, RunEntry e) {
    DatabaseClient.GenericExecuteSpec insert =
        db.sql(
                """
                INSERT INTO run_event (run_id, sequence, kind, state, round, task_key, member,
                    job_id, detail, at)
                VALUES (:run, :sequence, :kind, :state, :round, :task, :member, :job, :detail,
                    :at)
                """)
            .bind("run", runId)
            .bind("sequence", e.sequence())
            .bind("kind", e.kind())
            .bind("state", e.state().wire())
            .bind("round", e.round())
            .bind("detail", e.detail())
            .bind("at", utc(e.at()));
    insert = nullable(insert, "task", e.taskKey(), String.class);
    insert = nullable(insert, "member", e.member(), String.class);
    insert = nullable(insert, "job", e.jobId(), UUID.class);
    return insert.fetch().rowsUpdated().then();
  }

  /** Records a job the run created; its slot (plan, task or synthesis) is taken once only. */
  public Mono<Void> insertJob(UUID runId, JobOrder order, UUID jobId) {
    DatabaseClient.GenericExecuteSpec insert =
        db.sql(
                "INSERT INTO run_job (job_id, run_id, role, task_key, slot)"
                    + " VALUES (:job, :run, :role, :task, :slot)")
            .bind("job", jobId)
            .bind("run", runId)
            .bind("role", order.role().wire())
            .bind("slot", order.slot());
    insert = nullable(insert, "task", order.taskKey(), String.class);
    return insert.fetch().rowsUpdated().then();
  }

  /** The run a job belongs to, if any. */
  public Mono<RunJob> runJob(UUID jobId) {
    return db.sql("SELECT job_id, run_id, role, task_key FROM run_job WHERE job_id = :job")
        .bind("job", jobId)
        .map(row -> runJob(row))
        .one();
  }

  /** Every job the run created, in creation order of their slots. */
  public Flux<RunJob> jobs(UUID runId) {
    return db.sql(
            "SELECT rj.job_id, rj.run_id, rj.role, rj.task_key FROM run_job rj"
                + " JOIN job j ON j.id = rj.job_id WHERE rj.run_id = :run ORDER BY j.seq")
        .bind("run", runId)
        .map(row -> runJob(row))
        .all();
  }

  /** The run, locked until the transaction ends. */
  public Mono<Run> lock(UUID runId) {
    return load("SELECT " + COLUMNS + " FROM team_run WHERE id = :id FOR UPDATE", runId);
  }

  public Mono<Run> find(UUID runId) {
    return load("SELECT " + COLUMNS + " FROM team_run WHERE id = :id", runId);
  }

  /** The run an idempotency key started, if any. */
  public Mono<Run> findByKey(UUID teamId, String key) {
    return db.sql("SELECT id FROM team_run WHERE team_id = :team AND idempotency_key = :key")
        .bind("team", teamId)
        .bind("key", key)
        .map(row -> row.get("id", UUID.class))
        .one()
        .flatMap(this::find);
  }

  /** A team's runs, newest first. */
  public Flux<Run> findByTeam(UUID teamId, int limit) {
    return db.sql(
            "SELECT "
                + COLUMNS
                + " FROM team_run WHERE team_id = :team ORDER BY created_at DESC, id LIMIT :n")
        .bind("team", teamId)
        .bind("n", limit)
        .map(RunStore::stored)
        .all()
        .concatMap(this::withTasks);
  }

  /** How many of the team's runs have not ended. */
  public Mono<Long> countUnfinished(UUID teamId) {
    return db.sql(
            "SELECT count(*) AS n FROM team_run WHERE team_id = :team"
                + " AND state NOT IN ('completed', 'failed', 'cancelled')")
        .bind("team", teamId)
        .map(row -> row.get("n", Long.class))
        .one();
  }

  /** The run's timeline, oldest first. */
  public Flux<RunEntry> timeline(UUID runId) {
    return db.sql(
            "SELECT sequence, kind, state, round, task_key, member, job_id, detail, at"
                + " FROM run_event WHERE run_id = :run ORDER BY sequence")
        .bind("run", runId)
        .map(
            row ->
                new RunEntry(
                    row.get("sequence", Long.class),
                    row.get("kind", String.class),
                    RunState.fromWire(row.get("state", String.class)),
                    row.get("round", Integer.class),
                    row.get("task_key", String.class),
                    row.get("member", String.class),
                    row.get("job_id", UUID.class),
                    row.get("detail", String.class),
                    instant(row, "at")))
        .all();
  }

  private static RunJob runJob(Readable row) {
    return new RunJob(
        row.get("job_id", UUID.class),
        row.get("run_id", UUID.class),
        JobOrder.Role.fromWire(row.get("role", String.class)),
        row.get("task_key", String.class));
  }

  private Mono<Run> load(String sql, UUID runId) {
    return db.sql(sql).bind("id", runId).map(RunStore::stored).one().flatMap(this::withTasks);
  }

  private Mono<Run> withTasks(Run.Stored stored) {
    return tasks(stored.id())
        .collectList()
        .map(
            tasks ->
                Run.restore(
                    new Run.Stored(
                        stored.id(),
                        stored.teamId(),
                        stored.ownerId(),
                        stored.objective(),
                        stored.options(),
                        stored.state(),
                        stored.round(),
                        stored.planFallback(),
                        tasks,
                        stored.plannerJobId(),
                        stored.synthesisJobId(),
                        stored.result(),
                        stored.reason(),
                        stored.sequence(),
                        stored.createdAt(),
                        stored.updatedAt(),
                        stored.finishedAt())));
  }

  private Flux<RunTask> tasks(UUID runId) {
    return db.sql(
            "SELECT key, assignee, title, instruction, dependencies, state, round, job_id, result,"
                + " error FROM run_task WHERE run_id = :run ORDER BY position")
        .bind("run", runId)
        .map(
            row -> {
              String[] dependencies = row.get("dependencies", String[].class);
              return new RunTask(
                  new PlanTask(
                      row.get("key", String.class),
                      row.get("assignee", String.class),
                      row.get("title", String.class),
                      row.get("instruction", String.class),
                      dependencies == null ? List.of() : Arrays.asList(dependencies)),
                  TaskState.fromWire(row.get("state", String.class)),
                  row.get("round", Integer.class),
                  row.get("job_id", UUID.class),
                  row.get("result", String.class),
                  row.get("error", String.class));
            })
        .all();
  }

  private static Run.Stored stored(Readable row) {
    RunOptions options =
        new RunOptions(
            row.get("planner", String.class),
            row.get("synthesiser", String.class),
            row.get("max_rounds", Integer.class),
            row.get("concurrency", Integer.class),
            row.get("continue_on_member_error", Boolean.class),
            row.get("require_plan_approval", Boolean.class),
            RunOptions.UnreadablePlan.fromWire(row.get("on_unreadable_plan", String.class)));
    OffsetDateTime finished = row.get("finished_at", OffsetDateTime.class);
    return new Run.Stored(
        row.get("id", UUID.class),
        row.get("team_id", UUID.class),
        row.get("owner_id", String.class),
        row.get("objective", String.class),
        options,
        RunState.fromWire(row.get("state", String.class)),
        row.get("round", Integer.class),
        row.get("plan_fallback", Boolean.class),
        List.of(),
        row.get("planner_job_id", UUID.class),
        row.get("synthesis_job_id", UUID.class),
        row.get("result", String.class),
        row.get("reason", String.class),
        row.get("sequence", Long.class),
        instant(row, "created_at"),
        instant(row, "updated_at"),
        finished == null ? null : finished.toInstant());
  }

  private static Instant instant(Readable row, String column) {
    return row.get(column, OffsetDateTime.class).toInstant();
  }

  private static OffsetDateTime utc(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }

  private static <T> DatabaseClient.GenericExecuteSpec nullable(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable T value, Class<T> type) {
    return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
  }
}
