package io.agentteams.scheduler.budget.persistence;

import io.agentteams.platform.outbox.Outbox;
import io.agentteams.scheduler.budget.domain.Balance;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.DaySpend;
import io.agentteams.scheduler.budget.domain.Ledger;
import io.agentteams.scheduler.budget.domain.ModelSpend;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.budget.domain.TeamTotal;
import io.agentteams.scheduler.job.domain.Usage;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The ledger in Postgres: one balance row per scope, locked in scope order by whoever changes it,
 * the hold each job carries, and the budgets owners set.
 */
@Repository
public class LedgerStore {

  /**
   * What the ledger knows of one job.
   *
   * @param jobId the job
   * @param runId the team run that started its chain, if one did
   * @param hold what it holds reserved
   * @param heldOn the scopes the hold is on
   * @param settled whether its usage was settled
   */
  public record JobAccount(
      UUID jobId, @Nullable UUID runId, Usage hold, List<Scope> heldOn, boolean settled) {}

  /** A budget an owner set, with the owner's currency on an owner's budget. */
  public record BudgetRow(Budget budget, @Nullable String currency) {}

  /** Whose a scope is: its owner and the team it belongs to (for an owner: any of its teams). */
  public record Holder(String ownerId, UUID teamId) {}

  /** A balance row as a spend view reads it, with its team. */
  public record Row(Balance balance, @Nullable UUID teamId) {}

  /** The name the models past a view's bound are summed under. */
  public static final String OTHER_MODELS = "other";

  private static final String LOCK =
      """
      SELECT l.scope, l.scope_id, l.spent_tokens, l.spent_cost, l.spent_input_tokens,
             l.spent_output_tokens, l.reserved_tokens, l.reserved_cost, l.started_at, b.max_tokens, b.max_cost, b.max_wall_ms, b.max_hops
      FROM ledger l
      JOIN unnest(:kinds::text[], :ids::text[]) AS s(scope, scope_id)
        ON l.scope = s.scope AND l.scope_id = s.scope_id
      LEFT JOIN budget b ON b.scope = l.scope AND b.scope_id = l.scope_id
      ORDER BY l.scope, l.scope_id
      FOR UPDATE OF l
      """;

  /**
   * The scopes with a budget (set with a tokens, cost or wall-time limit, or of a kind the
   * deployment gives a default), their rows locked where free, and created where missing. The rows
   * a {@code SKIP LOCKED} lock skips and the rows another transaction created meanwhile come back
   * with {@code got} false. Creating only the missing rows (none in a steady state) keeps a
   * speculative insert per row out of every pass.
   */
  private static final String LOCK_BUDGETED =
      """
      WITH wanted AS MATERIALIZED (
          SELECT s.scope, s.scope_id, s.owner_id, s.team_id,
                 b.max_tokens, b.max_cost, b.max_wall_ms, b.max_hops
          FROM unnest(:kinds::text[], :ids::text[], :owners::text[], :teams::text[])
               AS s(scope, scope_id, owner_id, team_id)
          LEFT JOIN budget b ON b.scope = s.scope AND b.scope_id = s.scope_id
          WHERE b.max_tokens IS NOT NULL OR b.max_cost IS NOT NULL OR b.max_wall_ms IS NOT NULL
             OR s.scope = ANY(:defaulted::text[])
      ), locked AS MATERIALIZED (
          SELECT l.scope, l.scope_id, l.spent_tokens, l.spent_cost, l.spent_input_tokens,
                 l.spent_output_tokens, l.reserved_tokens, l.reserved_cost, l.started_at
          FROM ledger l
          JOIN wanted w ON l.scope = w.scope AND l.scope_id = w.scope_id
          ORDER BY l.scope, l.scope_id
          FOR UPDATE OF l SKIP LOCKED
      ), created AS (
          INSERT INTO ledger (scope, scope_id, owner_id, team_id, started_at, updated_at)
          SELECT w.scope, w.scope_id, w.owner_id,
                 CASE WHEN w.scope = 'owner' THEN NULL ELSE w.team_id::uuid END, :now, :now
          FROM wanted w
          WHERE NOT EXISTS (SELECT 1 FROM ledger l
                            WHERE l.scope = w.scope AND l.scope_id = w.scope_id)
          ORDER BY w.scope, w.scope_id
          ON CONFLICT (scope, scope_id) DO NOTHING
          RETURNING scope, scope_id, spent_tokens, spent_cost, spent_input_tokens,
                    spent_output_tokens, reserved_tokens, reserved_cost, started_at
      ), got AS (
          SELECT * FROM locked
          UNION ALL
          SELECT * FROM created
      )
      SELECT w.scope, w.scope_id, g.scope IS NOT NULL AS got, g.spent_tokens, g.spent_cost,
             g.spent_input_tokens, g.spent_output_tokens, g.reserved_tokens, g.reserved_cost,
             g.started_at,
             w.max_tokens, w.max_cost, w.max_wall_ms, w.max_hops
      FROM wanted w
      LEFT JOIN got g ON g.scope = w.scope AND g.scope_id = w.scope_id
      """;

  private final DatabaseClient db;

  public LedgerStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * What the ledger knows of a job, as columns of a query over {@code job j}: its team run (a run
   * is one chain named after the run: its jobs, and every hand-off and receipt in it, count against
   * the run; a chain named after its first job, a run's job, is how runs started before that were
   * counted), its hold and whether it settled. {@link #account} reads them, with the job's {@code
   * id}. Subqueries rather than joins, so a query that locks the job ({@code FOR UPDATE}) locks
   * nothing else.
   */
  public static final String ACCOUNT_COLUMNS =
      """
      COALESCE((SELECT r.id FROM team_run r WHERE r.id = j.chain_id),
               (SELECT rj.run_id FROM run_job rj WHERE rj.job_id = j.chain_id)) AS account_run_id,
      j.reserved_tokens, j.reserved_cost, j.reserved_on, j.settled
      """;

  /** A job's account, read from a row with its {@code id} and {@link #ACCOUNT_COLUMNS}. */
  public static JobAccount account(Readable row) {
    return new JobAccount(
        row.get("id", UUID.class),
        row.get("account_run_id", UUID.class),
        new Usage(row.get("reserved_tokens", Long.class), row.get("reserved_cost", Long.class)),
        heldOn(row.get("reserved_on", String[].class)),
        Boolean.TRUE.equals(row.get("settled", Boolean.class)));
  }

  /**
   * The scopes a hold is on, as the job's {@code reserved_on} column takes them in one text value
   * per job (a set-based statement binds one array of these, split with {@code
   * string_to_array(value, chr(31))}).
   */
  public static String heldOnValue(List<Scope> scopes) {
    return String.join(HELD_ON_SEPARATOR, scopes.stream().map(Scope::key).toList());
  }

  private static final String HELD_ON_SEPARATOR = String.valueOf((char) 31);

  /** The run and the hold of each job. */
  public Mono<Map<UUID, JobAccount>> accounts(Collection<UUID> jobIds) {
    if (jobIds.isEmpty()) {
      return Mono.just(Map.of());
    }
    return db.sql("SELECT j.id, " + ACCOUNT_COLUMNS + " FROM job j WHERE j.id = ANY(:ids)")
        .bind("ids", jobIds.toArray(UUID[]::new))
        .map(LedgerStore::account)
        .all()
        .collectMap(JobAccount::jobId, Function.identity());
  }

  /**
   * Locks the balances of the scopes for this transaction, creating the rows that do not exist yet,
   * waiting for rows another transaction holds: the locks are taken in scope order. (An admission
   * pass, which never waits, locks with {@link #lockBudgeted}.)
   *
   * @param defaults the budget that applies where none is set, by kind of scope
   */
  public Mono<Map<Scope, Balance>> lock(
      Map<Scope, Holder> scopes, Function<Scope.Kind, Budget> defaults, Instant now) {
    if (scopes.isEmpty()) {
      return Mono.just(Map.of());
    }
    List<Scope> sorted = scopes.keySet().stream().sorted().toList();
    String[] kinds = sorted.stream().map(s -> s.kind().wire()).toArray(String[]::new);
    String[] ids = sorted.stream().map(Scope::id).toArray(String[]::new);
    String[] owners = sorted.stream().map(s -> scopes.get(s).ownerId()).toArray(String[]::new);
    String[] teams =
        sorted.stream().map(s -> scopes.get(s).teamId().toString()).toArray(String[]::new);
    Mono<Long> create =
        db.sql(
                "INSERT INTO ledger (scope, scope_id, owner_id, team_id, started_at, updated_at)"
                    + " SELECT s.scope, s.scope_id, s.owner_id,"
                    + " CASE WHEN s.scope = 'owner' THEN NULL ELSE s.team_id::uuid END, :now, :now"
                    + " FROM unnest(:kinds::text[], :ids::text[], :owners::text[], :teams::text[])"
                    + " AS s(scope, scope_id, owner_id, team_id)"
                    + " ORDER BY s.scope, s.scope_id"
                    + " ON CONFLICT (scope, scope_id) DO NOTHING")
            .bind("kinds", kinds)
            .bind("ids", ids)
            .bind("owners", owners)
            .bind("teams", teams)
            .bind("now", JobStore.utc(now))
            .fetch()
            .rowsUpdated();
    return create.then(
        db.sql(LOCK)
            .bind("kinds", kinds)
            .bind("ids", ids)
            .map(row -> balance(row, defaults))
            .all()
            .collectMap(Balance::scope, Function.identity()));
  }

  /**
   * What an admission pass locked: every scope given that has a budget, and the balances of those
   * it holds now.
   *
   * @param budgeted the scopes with a budget set (a tokens, cost or wall-time limit) or a
   *     deployment default, whether their row was locked or not
   * @param locked the balances of the budgeted scopes this transaction holds locked; a budgeted
   *     scope missing here is held by another transaction
   */
  public record Budgeted(Set<Scope> budgeted, Map<Scope, Balance> locked) {}

  /**
   * For an admission pass, in one statement: picks out those of the scopes that have a budget,
   * locks their balance rows without waiting ({@code SKIP LOCKED}, in scope order) and creates the
   * rows that do not exist yet (locked by this transaction as it creates them). A row another
   * transaction holds is left out of {@link Budgeted#locked()}; so is one that another transaction
   * created after this statement began.
   *
   * @param defaults the budget that applies where none is set, by kind of scope
   */
  public Mono<Budgeted> lockBudgeted(
      Map<Scope, Holder> scopes, Function<Scope.Kind, Budget> defaults, Instant now) {
    if (scopes.isEmpty()) {
      return Mono.just(new Budgeted(Set.of(), Map.of()));
    }
    List<Scope> sorted = scopes.keySet().stream().sorted().toList();
    String[] defaulted =
        Arrays.stream(Scope.Kind.values())
            .filter(kind -> defaults.apply(kind).any())
            .map(Scope.Kind::wire)
            .toArray(String[]::new);
    return db.sql(LOCK_BUDGETED)
        .bind("kinds", sorted.stream().map(s -> s.kind().wire()).toArray(String[]::new))
        .bind("ids", sorted.stream().map(Scope::id).toArray(String[]::new))
        .bind("owners", sorted.stream().map(s -> scopes.get(s).ownerId()).toArray(String[]::new))
        .bind(
            "teams",
            sorted.stream().map(s -> scopes.get(s).teamId().toString()).toArray(String[]::new))
        .bind("defaulted", defaulted)
        .bind("now", JobStore.utc(now))
        .map(
            row ->
                new Found(
                    new Scope(
                        Scope.Kind.fromWire(row.get("scope", String.class)),
                        row.get("scope_id", String.class)),
                    Boolean.TRUE.equals(row.get("got", Boolean.class))
                        ? balance(row, defaults)
                        : null))
        .all()
        .collectList()
        .map(
            found -> {
              Set<Scope> budgeted = new HashSet<>();
              Map<Scope, Balance> locked = new HashMap<>();
              for (Found f : found) {
                budgeted.add(f.scope());
                if (f.balance() != null) {
                  locked.put(f.scope(), f.balance());
                }
              }
              return new Budgeted(budgeted, locked);
            });
  }

  /** A budgeted scope, with its balance when this transaction got its row. */
  private record Found(Scope scope, @Nullable Balance balance) {}

  /**
   * Takes the team's outbox ordering lock for this transaction, waiting for it. A job's transition
   * takes it before the ledger rows, as an admission pass (which holds it while it reserves) does,
   * so the two never wait on each other in a cycle.
   */
  public Mono<Void> lockTeamKey(UUID teamId) {
    return db.sql("SELECT pg_advisory_xact_lock(:namespace, hashtext(:team)) IS NULL AS locked")
        .bind("namespace", Outbox.KEY_LOCK_NAMESPACE)
        .bind("team", teamId.toString())
        .map(row -> row.get("locked", Boolean.class))
        .one()
        .then();
  }

  /** Writes back balances this transaction holds locked. */
  public Mono<Void> write(List<Balance> balances, Instant now) {
    if (balances.isEmpty()) {
      return Mono.empty();
    }
    return db.sql(
            """
            UPDATE ledger l SET spent_tokens = v.st, spent_cost = v.sc, spent_input_tokens = v.si,
                spent_output_tokens = v.so, reserved_tokens = v.rt, reserved_cost = v.rc,
                updated_at = :now
            FROM unnest(:kinds::text[], :ids::text[], :st::bigint[], :sc::bigint[],
                        :si::bigint[], :so::bigint[], :rt::bigint[], :rc::bigint[])
                 AS v(scope, scope_id, st, sc, si, so, rt, rc)
            WHERE l.scope = v.scope AND l.scope_id = v.scope_id
            """)
        .bind("kinds", balances.stream().map(b -> b.scope().kind().wire()).toArray(String[]::new))
        .bind("ids", balances.stream().map(b -> b.scope().id()).toArray(String[]::new))
        .bind("st", balances.stream().map(b -> b.spent().tokens()).toArray(Long[]::new))
        .bind("sc", balances.stream().map(b -> b.spent().costUnits()).toArray(Long[]::new))
        .bind("si", balances.stream().map(b -> b.spent().inputTokens()).toArray(Long[]::new))
        .bind("so", balances.stream().map(b -> b.spent().outputTokens()).toArray(Long[]::new))
        .bind("rt", balances.stream().map(b -> b.reserved().tokens()).toArray(Long[]::new))
        .bind("rc", balances.stream().map(b -> b.reserved().costUnits()).toArray(Long[]::new))
        .bind("now", JobStore.utc(now))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Records what a job holds now (on the scopes it already holds on), and whether it settled. */
  public Mono<Void> hold(UUID jobId, Usage hold, boolean settled) {
    return db.sql(
            "UPDATE job SET reserved_tokens = :tokens, reserved_cost = :cost, settled = :settled,"
                + " reserved_on = CASE WHEN :settled THEN '{}'::text[] ELSE reserved_on END"
                + " WHERE id = :id")
        .bind("id", jobId)
        .bind("tokens", hold.tokens())
        .bind("cost", hold.costUnits())
        .bind("settled", settled)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /**
   * Records the hold of jobs an admission pass reserved for, all the same estimate, each on its
   * scopes.
   */
  public Mono<Void> holdAll(Map<UUID, List<Scope>> heldOn, Usage hold) {
    if (heldOn.isEmpty()) {
      return Mono.empty();
    }
    List<UUID> ids = List.copyOf(heldOn.keySet());
    return db.sql(
            "UPDATE job j SET reserved_tokens = :tokens, reserved_cost = :cost,"
                + " reserved_on = string_to_array(v.scopes, chr(31))"
                + " FROM unnest(:ids::uuid[], :scopes::text[]) AS v(id, scopes) WHERE j.id = v.id")
        .bind("ids", ids.toArray(UUID[]::new))
        .bind("scopes", ids.stream().map(id -> heldOnValue(heldOn.get(id))).toArray(String[]::new))
        .bind("tokens", hold.tokens())
        .bind("cost", hold.costUnits())
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Those of the scopes that have a budget set (with a tokens, cost or wall-time limit). */
  public Mono<Set<Scope>> budgeted(Collection<Scope> scopes) {
    if (scopes.isEmpty()) {
      return Mono.just(Set.of());
    }
    List<Scope> list = scopes.stream().distinct().toList();
    return db.sql(
            "SELECT b.scope, b.scope_id FROM budget b"
                + " JOIN unnest(:kinds::text[], :ids::text[]) AS s(scope, scope_id)"
                + " ON b.scope = s.scope AND b.scope_id = s.scope_id"
                + " WHERE b.max_tokens IS NOT NULL OR b.max_cost IS NOT NULL"
                + " OR b.max_wall_ms IS NOT NULL")
        .bind("kinds", list.stream().map(s -> s.kind().wire()).toArray(String[]::new))
        .bind("ids", list.stream().map(Scope::id).toArray(String[]::new))
        .map(
            row ->
                new Scope(
                    Scope.Kind.fromWire(row.get("scope", String.class)),
                    row.get("scope_id", String.class)))
        .all()
        .collect(Collectors.toSet());
  }

  private static List<Scope> heldOn(String @Nullable [] keys) {
    return keys == null ? List.of() : Arrays.stream(keys).map(Scope::fromKey).toList();
  }

  /**
   * Adds what settlements spent per scope and model to the per-model rows; call it in the
   * transaction that settles, which holds the scopes' ledger rows locked.
   */
  public Mono<Void> addByModel(List<Ledger.ModelDelta> deltas) {
    if (deltas.isEmpty()) {
      return Mono.empty();
    }
    return db.sql(
            """
            INSERT INTO ledger_model (scope, scope_id, model, input_tokens, output_tokens, tokens,
                                      cost, jobs)
            SELECT * FROM unnest(:kinds::text[], :ids::text[], :models::text[], :ins::bigint[],
                                 :outs::bigint[], :tokens::bigint[], :costs::bigint[],
                                 :jobs::bigint[])
            ORDER BY 1, 2, 3
            ON CONFLICT (scope, scope_id, model) DO UPDATE SET
                input_tokens = ledger_model.input_tokens + excluded.input_tokens,
                output_tokens = ledger_model.output_tokens + excluded.output_tokens,
                tokens = ledger_model.tokens + excluded.tokens,
                cost = ledger_model.cost + excluded.cost,
                jobs = ledger_model.jobs + excluded.jobs
            """)
        .bind("kinds", deltas.stream().map(d -> d.scope().kind().wire()).toArray(String[]::new))
        .bind("ids", deltas.stream().map(d -> d.scope().id()).toArray(String[]::new))
        .bind("models", deltas.stream().map(d -> d.spend().model()).toArray(String[]::new))
        .bind("ins", deltas.stream().map(d -> d.spend().inputTokens()).toArray(Long[]::new))
        .bind("outs", deltas.stream().map(d -> d.spend().outputTokens()).toArray(Long[]::new))
        .bind("tokens", deltas.stream().map(d -> d.spend().tokens()).toArray(Long[]::new))
        .bind("costs", deltas.stream().map(d -> d.spend().cost()).toArray(Long[]::new))
        .bind("jobs", deltas.stream().map(d -> d.spend().jobs()).toArray(Long[]::new))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /**
   * The scopes' spend per model, each scope's models by most tokens first, at most {@code perScope}
   * of them (the rest are summed under {@link #OTHER_MODELS}).
   */
  public Mono<Map<Scope, List<ModelSpend>>> byModel(Collection<Scope> scopes, int perScope) {
    if (scopes.isEmpty()) {
      return Mono.just(Map.of());
    }
    List<Scope> list = scopes.stream().distinct().toList();
    return db.sql(
            """
            SELECT m.scope, m.scope_id, m.model, m.input_tokens, m.output_tokens, m.tokens,
                   m.cost, m.jobs
            FROM ledger_model m
            JOIN unnest(:kinds::text[], :ids::text[]) AS s(scope, scope_id)
              ON m.scope = s.scope AND m.scope_id = s.scope_id
            ORDER BY m.scope, m.scope_id, m.tokens DESC, m.model
            """)
        .bind("kinds", list.stream().map(s -> s.kind().wire()).toArray(String[]::new))
        .bind("ids", list.stream().map(Scope::id).toArray(String[]::new))
        .map(
            row ->
                Map.entry(
                    new Scope(
                        Scope.Kind.fromWire(row.get("scope", String.class)),
                        row.get("scope_id", String.class)),
                    new ModelSpend(
                        row.get("model", String.class),
                        row.get("input_tokens", Long.class),
                        row.get("output_tokens", Long.class),
                        row.get("tokens", Long.class),
                        row.get("cost", Long.class),
                        row.get("jobs", Long.class))))
        .all()
        .collectMultimap(Map.Entry::getKey, Map.Entry::getValue)
        .map(
            found -> {
              Map<Scope, List<ModelSpend>> bounded = new HashMap<>();
              found.forEach((scope, models) -> bounded.put(scope, bounded(models, perScope)));
              return bounded;
            });
  }

  private static List<ModelSpend> bounded(Collection<ModelSpend> models, int perScope) {
    List<ModelSpend> sorted = List.copyOf(models);
    if (sorted.size() <= perScope) {
      return sorted;
    }
    List<ModelSpend> shown = new ArrayList<>(sorted.subList(0, perScope - 1));
    ModelSpend rest = new ModelSpend(OTHER_MODELS, 0, 0, 0, 0, 0);
    for (ModelSpend m : sorted.subList(perScope - 1, sorted.size())) {
      rest = rest.plus(m);
    }
    shown.add(rest);
    return shown;
  }

  /** Records why a budget stopped or refused a job. */
  public Mono<Void> stopped(UUID jobId, String budget) {
    return db.sql("UPDATE job SET budget_stop = :budget WHERE id = :id")
        .bind("id", jobId)
        .bind("budget", budget)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** The balances of the scopes, unlocked; a scope with no row reads as empty. */
  public Mono<Map<Scope, Balance>> read(
      Collection<Scope> scopes, Function<Scope.Kind, Budget> defaults, Instant now) {
    if (scopes.isEmpty()) {
      return Mono.just(Map.of());
    }
    List<Scope> list = scopes.stream().distinct().toList();
    return db.sql(
            """
            SELECT s.scope, s.scope_id, coalesce(l.spent_tokens, 0) AS spent_tokens,
                   coalesce(l.spent_cost, 0) AS spent_cost,
                   coalesce(l.spent_input_tokens, 0) AS spent_input_tokens,
                   coalesce(l.spent_output_tokens, 0) AS spent_output_tokens,
                   coalesce(l.reserved_tokens, 0) AS reserved_tokens,
                   coalesce(l.reserved_cost, 0) AS reserved_cost,
                   coalesce(l.started_at, :now) AS started_at,
                   b.max_tokens, b.max_cost, b.max_wall_ms, b.max_hops
            FROM unnest(:kinds::text[], :ids::text[]) AS s(scope, scope_id)
            LEFT JOIN ledger l ON l.scope = s.scope AND l.scope_id = s.scope_id
            LEFT JOIN budget b ON b.scope = s.scope AND b.scope_id = s.scope_id
            """)
        .bind("kinds", list.stream().map(s -> s.kind().wire()).toArray(String[]::new))
        .bind("ids", list.stream().map(Scope::id).toArray(String[]::new))
        .bind("now", JobStore.utc(now))
        .map(row -> balance(row, defaults))
        .all()
        .collectMap(Balance::scope, Function.identity());
  }

  /**
   * The balances of a team's scopes (the team, its members, runs and chains): members and runs
   * first, then chains, each most recently changed first, at most {@code limit}.
   */
  public Flux<Row> teamRows(UUID teamId, Function<Scope.Kind, Budget> defaults, int limit) {
    return db.sql(
            """
            SELECT l.scope, l.scope_id, l.team_id, l.spent_tokens, l.spent_cost,
                   l.spent_input_tokens, l.spent_output_tokens, l.reserved_tokens, l.reserved_cost, l.started_at,
                   b.max_tokens, b.max_cost, b.max_wall_ms, b.max_hops
            FROM ledger l
            LEFT JOIN budget b ON b.scope = l.scope AND b.scope_id = l.scope_id
            WHERE l.team_id = :team
            -- members and runs before the many chains, each kind most recently changed first
            ORDER BY l.scope = 'chain', l.updated_at DESC
            LIMIT :limit
            """)
        .bind("team", teamId)
        .bind("limit", limit)
        .map(row -> new Row(balance(row, defaults), row.get("team_id", UUID.class)))
        .all();
  }

  /**
   * What the owner's settled jobs (of one team, or of all its teams with {@code teamId} null) spent
   * per day (UTC) since {@code since}, counted on the day each job finished; days with nothing are
   * not listed.
   */
  public Flux<DaySpend> daily(String ownerId, @Nullable UUID teamId, Instant since) {
    DatabaseClient.GenericExecuteSpec query =
        db.sql(
                """
                SELECT (finished_at AT TIME ZONE 'UTC')::date AS day, sum(tokens) AS tokens,
                       sum(cost_units) AS cost, count(*) AS jobs
                FROM job
                WHERE owner_id = :owner AND settled AND finished_at >= :since
                  AND (tokens > 0 OR cost_units > 0)
                  AND (CAST(:team AS uuid) IS NULL OR team_id = CAST(:team AS uuid))
                GROUP BY 1
                """)
            .bind("owner", ownerId)
            .bind("since", JobStore.utc(since));
    query = teamId == null ? query.bindNull("team", UUID.class) : query.bind("team", teamId);
    return query
        .map(
            row ->
                new DaySpend(
                    row.get("day", LocalDate.class),
                    row.get("tokens", Number.class).longValue(),
                    row.get("cost", Number.class).longValue(),
                    row.get("jobs", Number.class).longValue()))
        .all();
  }

  /** What each of the owner's teams spent in all, as the ledger sums it (deleted teams too). */
  public Flux<TeamTotal> teamTotals(String ownerId) {
    return db.sql(
            """
            SELECT scope_id, spent_tokens, spent_cost, jobs FROM ledger
            WHERE scope = 'team' AND owner_id = :owner
            """)
        .bind("owner", ownerId)
        .map(
            row ->
                new TeamTotal(
                    UUID.fromString(row.get("scope_id", String.class)),
                    row.get("spent_tokens", Long.class),
                    row.get("spent_cost", Long.class),
                    row.get("jobs", Number.class).longValue()))
        .all();
  }

  /** Sets (or with {@link Budget#NONE}, clears) the budget of a scope. */
  public Mono<Void> setBudget(
      Scope scope, String ownerId, Budget budget, @Nullable String currency, Instant now) {
    if (!budget.any() && currency == null) {
      return db.sql("DELETE FROM budget WHERE scope = :scope AND scope_id = :id")
          .bind("scope", scope.kind().wire())
          .bind("id", scope.id())
          .fetch()
          .rowsUpdated()
          .then();
    }
    DatabaseClient.GenericExecuteSpec upsert =
        db.sql(
                """
                INSERT INTO budget (scope, scope_id, owner_id, max_tokens, max_cost, max_wall_ms,
                                    max_hops, currency, updated_at)
                VALUES (:scope, :id, :owner, :tokens, :cost, :wall, :hops, :currency, :now)
                ON CONFLICT (scope, scope_id) DO UPDATE SET max_tokens = :tokens,
                    max_cost = :cost, max_wall_ms = :wall, max_hops = :hops,
                    currency = :currency, updated_at = :now
                """)
            .bind("scope", scope.kind().wire())
            .bind("id", scope.id())
            .bind("owner", ownerId)
            .bind("now", JobStore.utc(now));
    upsert = bindLong(upsert, "tokens", budget.maxTokens());
    upsert = bindLong(upsert, "cost", budget.maxCost());
    upsert =
        bindLong(upsert, "wall", budget.maxWall() == null ? null : budget.maxWall().toMillis());
    upsert =
        budget.maxHops() == null
            ? upsert.bindNull("hops", Integer.class)
            : upsert.bind("hops", budget.maxHops());
    upsert =
        currency == null
            ? upsert.bindNull("currency", String.class)
            : upsert.bind("currency", currency);
    return upsert.fetch().rowsUpdated().then();
  }

  /** The budget set on a scope, and the currency with it; {@link Budget#NONE} when none. */
  public Mono<BudgetRow> budget(Scope scope) {
    return db.sql(
            "SELECT max_tokens, max_cost, max_wall_ms, max_hops, currency FROM budget"
                + " WHERE scope = :scope AND scope_id = :id")
        .bind("scope", scope.kind().wire())
        .bind("id", scope.id())
        .map(row -> new BudgetRow(budgetOf(row), row.get("currency", String.class)))
        .one()
        .defaultIfEmpty(new BudgetRow(Budget.NONE, null));
  }

  /** Hand-offs so far in a chain. */
  public Mono<Integer> chainHops(UUID chainId) {
    return db.sql("SELECT hops FROM chain WHERE chain_id = :chain")
        .bind("chain", chainId)
        .map(row -> row.get("hops", Integer.class))
        .one()
        .defaultIfEmpty(0);
  }

  /** Counts one more hand-off in a chain. */
  public Mono<Void> addHop(UUID chainId, UUID teamId) {
    return db.sql(
            "INSERT INTO chain (chain_id, team_id, hops) VALUES (:chain, :team, 1)"
                + " ON CONFLICT (chain_id) DO UPDATE SET hops = chain.hops + 1")
        .bind("chain", chainId)
        .bind("team", teamId)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Reservations outstanding across the deployment: jobs holding, and what they hold. */
  public Mono<long[]> outstanding() {
    return db.sql(
            "SELECT count(*) AS jobs, coalesce(sum(reserved_tokens), 0)::bigint AS tokens,"
                + " coalesce(sum(reserved_cost), 0)::bigint AS cost FROM job"
                + " WHERE reserved_tokens > 0 OR reserved_cost > 0")
        .map(
            row ->
                new long[] {
                  row.get("jobs", Long.class),
                  row.get("tokens", Long.class),
                  row.get("cost", Long.class)
                })
        .one();
  }

  private static Balance balance(Readable row, Function<Scope.Kind, Budget> defaults) {
    Scope scope =
        new Scope(
            Scope.Kind.fromWire(row.get("scope", String.class)), row.get("scope_id", String.class));
    return new Balance(
        scope,
        budgetOf(row).orElse(defaults.apply(scope.kind())),
        new Usage(
            row.get("spent_tokens", Long.class),
            row.get("spent_cost", Long.class),
            row.get("spent_input_tokens", Long.class),
            row.get("spent_output_tokens", Long.class),
            null),
        new Usage(row.get("reserved_tokens", Long.class), row.get("reserved_cost", Long.class)),
        row.get("started_at", OffsetDateTime.class).toInstant());
  }

  private static Budget budgetOf(Readable row) {
    Long wall = row.get("max_wall_ms", Long.class);
    return new Budget(
        row.get("max_tokens", Long.class),
        row.get("max_cost", Long.class),
        wall == null ? null : Duration.ofMillis(wall),
        row.get("max_hops", Integer.class));
  }

  private static DatabaseClient.GenericExecuteSpec bindLong(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable Long value) {
    return value == null ? spec.bindNull(name, Long.class) : spec.bind(name, value);
  }
}
