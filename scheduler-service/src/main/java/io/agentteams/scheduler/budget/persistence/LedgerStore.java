package io.agentteams.scheduler.budget.persistence;

import io.agentteams.platform.outbox.Outbox;
import io.agentteams.scheduler.budget.domain.Balance;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.Ledger;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.budget.domain.Usage;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
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
import reactor.core.publisher.Mono;

/**
 * The ledger in Postgres: one balance row per scope, locked in scope order by whoever changes it,
 * and the hold each job carries. The budgets set on scopes are kept by {@link BudgetStore}; what
 * the spend views read, by {@link SpendStore}.
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

  /** Whose a scope is: its owner and the team it belongs to (for an owner: any of its teams). */
  public record Holder(String ownerId, UUID teamId) {}

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
            .bind("now", utc(now))
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
        .bind("now", utc(now))
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
        .bind("now", utc(now))
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
        .bind("now", utc(now))
        .map(row -> balance(row, defaults))
        .all()
        .collectMap(Balance::scope, Function.identity());
  }

  static Balance balance(Readable row, Function<Scope.Kind, Budget> defaults) {
    Scope scope =
        new Scope(
            Scope.Kind.fromWire(row.get("scope", String.class)), row.get("scope_id", String.class));
    return new Balance(
        scope,
        BudgetStore.budgetOf(row).orElse(defaults.apply(scope.kind())),
        new Usage(
            row.get("spent_tokens", Long.class),
            row.get("spent_cost", Long.class),
            row.get("spent_input_tokens", Long.class),
            row.get("spent_output_tokens", Long.class),
            null),
        new Usage(row.get("reserved_tokens", Long.class), row.get("reserved_cost", Long.class)),
        row.get("started_at", OffsetDateTime.class).toInstant());
  }

  static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }
}
