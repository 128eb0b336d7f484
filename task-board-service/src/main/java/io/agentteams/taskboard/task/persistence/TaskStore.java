package io.agentteams.taskboard.task.persistence;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.Topics;
import io.agentteams.platform.event.TraceContext;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.taskboard.task.domain.Board;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskFilter;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.domain.TaskStatus;
import io.agentteams.taskboard.task.domain.WriteScope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Boards and their tasks. A board is loaded with its row and its live tasks locked ({@code FOR
 * UPDATE}), so graph-changing transactions of one team run one at a time, while claims and
 * heartbeats write single tasks with a compare-and-set on the revision.
 */
@Repository
public class TaskStore {

  private static final String BOARD_COLUMNS =
      "owner_id, next_task_id, claim_timeout_seconds, settings_revision";

  private final DatabaseClient db;
  private final Outbox outbox;

  public TaskStore(DatabaseClient db, Outbox outbox) {
    this.db = db;
    this.outbox = outbox;
  }

  /** Creates the team's board row unless it exists. */
  public Mono<Void> ensureBoard(UUID team, String ownerId, Instant now) {
    return db.sql(
            """
            INSERT INTO board (team_id, owner_id, next_task_id, settings_revision, created_at)
            VALUES (:team, :owner, 1, 1, :now) ON CONFLICT (team_id) DO NOTHING
            """)
        .bind("team", team)
        .bind("owner", ownerId)
        .bind("now", TaskRows.time(now))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /**
   * Locks the team's board and loads it with its live tasks (and the tombstone {@code also}, if
   * that task is one). Empty when the team has no board.
   */
  public Mono<Board> lock(UUID team, Duration defaultClaimTimeout, @Nullable TaskId also) {
    return load(team, defaultClaimTimeout, also, "FOR UPDATE");
  }

  /** Like {@link #lock}, but empty at once when another transaction holds the board. */
  public Mono<Board> tryLock(UUID team, Duration defaultClaimTimeout) {
    return load(team, defaultClaimTimeout, null, "FOR UPDATE SKIP LOCKED");
  }

  private Mono<Board> load(
      UUID team, Duration defaultClaimTimeout, @Nullable TaskId also, String locking) {
    return db.sql("SELECT " + BOARD_COLUMNS + " FROM board WHERE team_id = :team " + locking)
        .bind("team", team)
        .map(
            row ->
                new BoardRow(
                    row.get("owner_id", String.class),
                    row.get("next_task_id", Long.class),
                    row.get("claim_timeout_seconds", Long.class),
                    row.get("settings_revision", Long.class)))
        .one()
        .flatMap(
            board ->
                db.sql(
                        "SELECT "
                            + TaskRows.COLUMNS
                            + " FROM task WHERE team_id = :team"
                            + " AND (deleted_at IS NULL OR id = :also) ORDER BY id FOR UPDATE")
                    .bind("team", team)
                    .bind("also", also == null ? 0L : also.value())
                    .map(TaskRows::read)
                    .all()
                    .collectList()
                    .map(
                        tasks ->
                            Board.of(
                                team,
                                board.ownerId(),
                                board.nextTaskId(),
                                board.claimTimeoutSeconds() == null
                                    ? null
                                    : Duration.ofSeconds(board.claimTimeoutSeconds()),
                                defaultClaimTimeout,
                                board.settingsRevision(),
                                tasks)));
  }

  /**
   * Writes what changed on a locked board: new tasks, changed tasks (compare-and-set on the
   * revision they were loaded at), the id counter and the settings.
   */
  public Mono<Void> save(Board board) {
    Mono<Long> boardRow =
        TaskRows.nullable(
                db.sql(
                        """
                        UPDATE board SET next_task_id = :next, claim_timeout_seconds = :timeout,
                          settings_revision = :settingsRevision
                        WHERE team_id = :team
                        """)
                    .bind("team", board.teamId())
                    .bind("next", board.nextTaskId())
                    .bind("settingsRevision", board.settingsRevision()),
                "timeout",
                board.claimTimeout() == null ? null : board.claimTimeout().toSeconds(),
                Long.class)
            .fetch()
            .rowsUpdated();
    return Flux.fromIterable(board.changes())
        .concatMap(
            change ->
                change.loadedRevision() == null
                    ? insert(board.teamId(), change.task())
                    : replace(board.teamId(), change.task(), change.loadedRevision())
                        .flatMap(
                            applied ->
                                applied
                                    ? Mono.empty()
                                    : Mono.error(
                                        new IllegalStateException(
                                            "task "
                                                + change.task().id()
                                                + " changed while its board was locked"))))
        .then(boardRow)
        .then();
  }

  private Mono<Void> insert(UUID team, Task task) {
    return TaskRows.bind(db.sql(TaskRows.INSERT), team, task).fetch().rowsUpdated().then();
  }

  /**
   * Compare-and-set of one task: writes it only if the row is still at {@code loadedRevision}.
   *
   * @return whether the row was written
   */
  public Mono<Boolean> replace(UUID team, Task task, long loadedRevision) {
    return TaskRows.bind(db.sql(TaskRows.REPLACE), team, task)
        .bind("loadedRevision", loadedRevision)
        .fetch()
        .rowsUpdated()
        .map(rows -> rows == 1);
  }

  /** A claim to try: the task, the member claiming it, the revision the member saw. */
  public record ClaimAttempt(TaskId id, String member, long expectedRevision) {}

  /**
   * Tries several claims of one team's tasks in one guarded statement, with their {@code
   * TaskClaimed} events, committed at once (no transaction round trips). A task changes only if it
   * is still ready, unowned or reserved for the member, and at the expected revision, and its event
   * is written if and only if it did. The guard is {@code Task.claim}'s rule stated in SQL, so
   * racing claimants are decided by the row lock alone; {@code ClaimGuardIntegrationTest} holds the
   * two to the same answers.
   *
   * @param attempts at most one per task
   * @param claimed the event of each attempt, written if the attempt succeeds
   * @return the claimed tasks; attempts whose guard did not hold are absent
   */
  public Flux<Task> claim(
      UUID team,
      List<ClaimAttempt> attempts,
      Instant now,
      String ownerId,
      Function<ClaimAttempt, EventPayload> claimed) {
    return claimTraced(team, attempts, now, ownerId, claimed, i -> null);
  }

  /**
   * Like {@link #claim(UUID, List, Instant, String, Function)}, with each attempt's event carrying
   * the trace of the request that made the attempt, for a statement that carries the claims of
   * several requests.
   *
   * @param callerOf the Reactor context of the request that made the attempt at an index of {@code
   *     attempts}; its current span is the parent of the attempt's event
   */
  public Flux<Task> claim(
      UUID team,
      List<ClaimAttempt> attempts,
      Instant now,
      String ownerId,
      Function<ClaimAttempt, EventPayload> claimed,
      IntFunction<ContextView> callerOf) {
    return claimTraced(
        team, attempts, now, ownerId, claimed, i -> outbox.traceOf(callerOf.apply(i)));
  }

  /** The claims' statement; the event of the attempt at an index gets that index's trace. */
  private Flux<Task> claimTraced(
      UUID team,
      List<ClaimAttempt> attempts,
      Instant now,
      String ownerId,
      Function<ClaimAttempt, EventPayload> claimed,
      IntFunction<@Nullable TraceContext> traceOf) {
    List<Outbox.RowEvent> events = new ArrayList<>(attempts.size());
    for (int i = 0; i < attempts.size(); i++) {
      ClaimAttempt a = attempts.get(i);
      events.add(
          new Outbox.RowEvent(
              Long.toString(a.id().value()),
              a.expectedRevision() + 1,
              claimed.apply(a),
              traceOf.apply(i)));
    }
    return outbox.appendWithChange(
        // The attempted rows are locked in id order before any is updated (the ARRAY(...)
        // InitPlan runs first), so batches of different replicas that share tasks queue behind
        // each other instead of deadlocking.
        "WITH locked AS (SELECT id FROM task WHERE team_id = :team AND id = ANY(:ids::bigint[])"
            + " ORDER BY id FOR UPDATE)"
            + " UPDATE task t SET state = 'in_progress', status = 'in_progress',"
            + " blocked_reason = NULL, blocked_by = NULL, owner = a.member, claimed_at = :now,"
            + " heartbeat_at = :now, heartbeat_count = 0, phase = NULL, percent = 0,"
            + " revision = t.revision + 1, updated_at = :now"
            + " FROM unnest(:ids::bigint[], :members::text[], :expected::bigint[])"
            + " AS a(id, member, expected)"
            + " WHERE t.team_id = :team AND t.id = ANY(ARRAY(SELECT id FROM locked))"
            + " AND t.id = a.id AND t.revision = a.expected"
            + " AND t.status = 'ready' AND (t.owner IS NULL OR t.owner = a.member)"
            + " RETURNING t.id::text AS outbox_match, "
            + TaskRows.COLUMNS_OF_T,
        spec ->
            spec.bind("team", team)
                .bind("ids", attempts.stream().map(a -> a.id().value()).toArray(Long[]::new))
                .bind("members", attempts.stream().map(ClaimAttempt::member).toArray(String[]::new))
                .bind(
                    "expected",
                    attempts.stream().map(ClaimAttempt::expectedRevision).toArray(Long[]::new))
                .bind("now", TaskRows.time(now)),
        TaskRows::read,
        Topics.TASK_EVENTS,
        team.toString(),
        ownerId,
        events);
  }

  /** One task, live or a tombstone. */
  public Mono<Task> find(UUID team, TaskId id) {
    return db.sql("SELECT " + TaskRows.COLUMNS + " FROM task WHERE team_id = :team AND id = :id")
        .bind("team", team)
        .bind("id", id.value())
        .map(TaskRows::read)
        .one();
  }

  /**
   * At most {@code limit} of the team's tasks the filter holds, in id order, after the given id
   * (from the first without one). Keyset paging on the primary key: each page is one index range
   * scan, however deep into the board it starts.
   */
  public Flux<Task> list(UUID team, TaskFilter filter, @Nullable TaskId after, int limit) {
    StringBuilder sql =
        new StringBuilder("SELECT ")
            .append(TaskRows.COLUMNS)
            .append(" FROM task WHERE team_id = :team AND id > :after");
    if (!filter.includeDeleted()) {
      sql.append(" AND deleted_at IS NULL");
    }
    if (!filter.statuses().isEmpty()) {
      sql.append(" AND status = ANY(:statuses)");
    }
    if (filter.owner() != null) {
      sql.append(" AND owner = :owner");
    }
    sql.append(" ORDER BY id LIMIT :limit");
    DatabaseClient.GenericExecuteSpec spec =
        db.sql(sql.toString())
            .bind("team", team)
            .bind("after", after == null ? 0L : after.value())
            .bind("limit", limit);
    if (!filter.statuses().isEmpty()) {
      spec =
          spec.bind(
              "statuses", filter.statuses().stream().map(TaskStatus::wire).toArray(String[]::new));
    }
    if (filter.owner() != null) {
      spec = spec.bind("owner", filter.owner());
    }
    return spec.map(TaskRows::read).all();
  }

  /**
   * Deletes at most {@code batch} tombstones of tasks deleted before {@code before}, of any team;
   * rows another replica is purging are skipped. The boards' id counters are untouched, so a purged
   * task's id is never given out again.
   *
   * @return how many were purged
   */
  public Mono<Long> purgeTombstones(Instant before, int batch) {
    return db.sql(
            """
            DELETE FROM task WHERE (team_id, id) IN (
              SELECT team_id, id FROM task WHERE deleted_at < :before
              ORDER BY deleted_at LIMIT :batch FOR UPDATE SKIP LOCKED)
            """)
        .bind("before", before)
        .bind("batch", batch)
        .fetch()
        .rowsUpdated();
  }

  /** Write scopes of the team's active tasks other than {@code except}, for overlap warnings. */
  public Mono<Map<TaskId, List<WriteScope>>> activeScopes(UUID team, TaskId except) {
    return db.sql(
            """
            SELECT id, write_scopes FROM task
            WHERE team_id = :team AND id <> :except AND cardinality(write_scopes) > 0
              AND status IN ('awaiting_approval', 'ready', 'pending', 'blocked', 'in_progress')
            """)
        .bind("team", team)
        .bind("except", except.value())
        .map(
            row ->
                Map.entry(
                    TaskId.of(row.get("id", Long.class)),
                    Arrays.stream(row.get("write_scopes", String[].class))
                        .map(WriteScope::new)
                        .toList()))
        .all()
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  /**
   * Teams with at least one claim whose heartbeats stopped for longer than its time-out. The claim
   * index is read only from the oldest heartbeat up to the shortest time-out any team has, so a
   * sweep reads the claims that may have expired, not every live one.
   */
  public Flux<UUID> teamsWithExpiredClaims(Instant now, Duration defaultTimeout, int limit) {
    return db.sql(
            """
            SELECT DISTINCT t.team_id FROM task t JOIN board b ON b.team_id = t.team_id
            WHERE t.status = 'in_progress'
              AND t.heartbeat_at < :now - make_interval(secs => (
                    SELECT least(min(claim_timeout_seconds), :defaultSeconds) FROM board
                  )::double precision)
              AND t.heartbeat_at < :now - make_interval(
                    secs => coalesce(b.claim_timeout_seconds, :defaultSeconds)::double precision)
            LIMIT :limit
            """)
        .bind("now", TaskRows.time(now))
        .bind("defaultSeconds", defaultTimeout.toSeconds())
        .bind("limit", limit)
        .map(row -> row.get("team_id", UUID.class))
        .all();
  }

  /** The board's settings, without locking. */
  public Mono<BoardSettings> settings(UUID team, Duration defaultClaimTimeout) {
    return db.sql("SELECT " + BOARD_COLUMNS + " FROM board WHERE team_id = :team")
        .bind("team", team)
        .map(
            row -> {
              Long seconds = row.get("claim_timeout_seconds", Long.class);
              return new BoardSettings(
                  seconds == null ? null : Duration.ofSeconds(seconds),
                  seconds == null ? defaultClaimTimeout : Duration.ofSeconds(seconds),
                  row.get("settings_revision", Long.class));
            })
        .one();
  }

  /** A team's claim time-out and the revision of its settings. */
  public record BoardSettings(
      @Nullable Duration claimTimeout, Duration effectiveClaimTimeout, long revision) {}

  private record BoardRow(
      String ownerId, long nextTaskId, @Nullable Long claimTimeoutSeconds, long settingsRevision) {}
}
