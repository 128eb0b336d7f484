package io.agentteams.scheduler.budget.persistence;

import io.agentteams.scheduler.budget.domain.Balance;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.DaySpend;
import io.agentteams.scheduler.budget.domain.ModelSpend;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.budget.domain.TeamTotal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What the spend views read from the ledger in Postgres, unlocked: spend per model, a team's
 * balances, spend per day, each team's total, and the reservations outstanding.
 */
@Repository
public class SpendStore {

  /** A balance row as a spend view reads it, with its team. */
  public record Row(Balance balance, @Nullable UUID teamId) {}

  /** The name the models past a view's bound are summed under. */
  public static final String OTHER_MODELS = "other";

  private final DatabaseClient db;

  public SpendStore(DatabaseClient db) {
    this.db = db;
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
        .map(row -> new Row(LedgerStore.balance(row, defaults), row.get("team_id", UUID.class)))
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
            .bind("since", LedgerStore.utc(since));
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
}
