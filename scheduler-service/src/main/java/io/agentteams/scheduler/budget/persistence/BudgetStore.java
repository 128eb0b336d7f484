package io.agentteams.scheduler.budget.persistence;

import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.domain.Scope;
import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** The budgets set on scopes in Postgres, with an owner's currency, and each chain's hand-offs. */
@Repository
public class BudgetStore {

  /** A budget an owner set, with the owner's currency on an owner's budget. */
  public record BudgetRow(Budget budget, @Nullable String currency) {}

  private final DatabaseClient db;

  public BudgetStore(DatabaseClient db) {
    this.db = db;
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
            .bind("now", LedgerStore.utc(now));
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

  /** A budget read from a row with its {@code max_*} columns. */
  static Budget budgetOf(Readable row) {
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
