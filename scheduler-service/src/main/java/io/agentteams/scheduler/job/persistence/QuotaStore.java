package io.agentteams.scheduler.job.persistence;

import io.agentteams.scheduler.budget.domain.Usage;
import java.time.Instant;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** Team and chain counts, reported usage, and idempotency keys. */
@Repository
public class QuotaStore {

  /** A team's counts. */
  public record TeamQuota(int requests, int receipts) {}

  /** A chain's count and usage. */
  public record ChainQuota(int requests, Usage usage) {}

  private final DatabaseClient db;

  public QuotaStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * The team's counts, locked until the transaction ends: the team's submissions and receipts are
   * serialised so their limits hold, while other teams go on undisturbed.
   */
  public Mono<TeamQuota> lockTeam(UUID teamId, String ownerId) {
    return db.sql(
            "INSERT INTO team_quota (team_id, owner_id) VALUES (:team, :owner)"
                + " ON CONFLICT (team_id) DO NOTHING")
        .bind("team", teamId)
        .bind("owner", ownerId)
        .fetch()
        .rowsUpdated()
        .then(
            db.sql("SELECT requests, receipts FROM team_quota WHERE team_id = :team FOR UPDATE")
                .bind("team", teamId)
                .map(
                    row ->
                        new TeamQuota(
                            row.get("requests", Integer.class), row.get("receipts", Integer.class)))
                .one());
  }

  public Mono<Void> addToTeam(UUID teamId, int requests, int receipts) {
    return db.sql(
            "UPDATE team_quota SET requests = requests + :requests, receipts = receipts + :receipts"
                + " WHERE team_id = :team")
        .bind("team", teamId)
        .bind("requests", requests)
        .bind("receipts", receipts)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** A chain's count and usage; zero for a chain not seen before. */
  public Mono<ChainQuota> chain(UUID chainId) {
    return db.sql("SELECT requests, tokens, cost_units FROM chain WHERE chain_id = :chain")
        .bind("chain", chainId)
        .map(
            row ->
                new ChainQuota(
                    row.get("requests", Integer.class),
                    new Usage(row.get("tokens", Long.class), row.get("cost_units", Long.class))))
        .one()
        .defaultIfEmpty(new ChainQuota(0, Usage.NONE));
  }

  public Mono<Void> addChainRequest(UUID chainId, UUID teamId) {
    return db.sql(
            "INSERT INTO chain (chain_id, team_id, requests) VALUES (:chain, :team, 1)"
                + " ON CONFLICT (chain_id) DO UPDATE SET requests = chain.requests + 1")
        .bind("chain", chainId)
        .bind("team", teamId)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** The fingerprint the key was first used with; empty for a new key. */
  public Mono<String> requestKey(UUID teamId, String scope, String key) {
    return db.sql(
            "SELECT fingerprint FROM request_key WHERE team_id = :team AND scope = :scope"
                + " AND key = :key")
        .bind("team", teamId)
        .bind("scope", scope)
        .bind("key", key)
        .map(row -> row.get("fingerprint", String.class))
        .one();
  }

  public Mono<Void> insertRequestKey(
      UUID teamId, String scope, String key, String fingerprint, Instant now) {
    return db.sql(
            "INSERT INTO request_key (team_id, scope, key, fingerprint, created_at)"
                + " VALUES (:team, :scope, :key, :fingerprint, :now)")
        .bind("team", teamId)
        .bind("scope", scope)
        .bind("key", key)
        .bind("fingerprint", fingerprint)
        .bind("now", JobStore.utc(now))
        .fetch()
        .rowsUpdated()
        .then();
  }
}
