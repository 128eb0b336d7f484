package io.agentteams.scheduler.runtime.persistence;

import io.agentteams.contracts.agent.AgentRuntimeChanged;
import io.agentteams.platform.secrets.SecretsAtRest;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.runtime.domain.PushAgent;
import io.agentteams.scheduler.runtime.domain.SigningSecrets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * How owners' agents run, projected from {@link AgentRuntimeChanged}, newest version wins. Webhook
 * secrets are kept encrypted ({@link SecretsAtRest}: the scheduler's own key from configuration,
 * its id in {@code secrets_key_id} beside the ciphertexts, each bound to its owner, agent and
 * column); a row with a secret and no key id predates encryption and is read as plaintext until
 * {@link #encryptStale} upgrades it.
 */
@Repository
public class PushAgentStore {

  private static final int UPGRADE_BATCH = 100;

  private final DatabaseClient db;
  private final SecretsAtRest atRest;

  public PushAgentStore(DatabaseClient db, SecretsAtRest atRest) {
    this.db = db;
    this.atRest = atRest;
  }

  /**
   * Records the change, with the secrets opened from its seal, unless a newer one is already
   * recorded; a deleted agent's endpoint and secrets are dropped, so nothing is pushed to it again.
   */
  public Mono<Void> apply(AgentRuntimeChanged change, @Nullable SigningSecrets secrets) {
    if (change.deleted()) {
      return db.sql(
              "DELETE FROM push_agent WHERE owner_id = :owner AND agent_id = :agent"
                  + " AND version < :version")
          .bind("owner", change.ownerId())
          .bind("agent", change.agentId())
          .bind("version", change.version())
          .fetch()
          .rowsUpdated()
          .then();
    }
    DatabaseClient.GenericExecuteSpec spec =
        db.sql(
                """
                INSERT INTO push_agent (owner_id, agent_id, runtime_kind, endpoint, secret,
                    previous_secret, previous_valid_until, version, secrets_key_id)
                VALUES (:owner, :agent, :kind, :endpoint, :secret, :previous, :until, :version,
                    :key)
                ON CONFLICT (owner_id, agent_id) DO UPDATE
                  SET runtime_kind = excluded.runtime_kind, endpoint = excluded.endpoint,
                      secret = excluded.secret, previous_secret = excluded.previous_secret,
                      previous_valid_until = excluded.previous_valid_until,
                      version = excluded.version, secrets_key_id = excluded.secrets_key_id
                  WHERE push_agent.version < excluded.version
                """)
            .bind("owner", change.ownerId())
            .bind("agent", change.agentId())
            .bind("kind", change.runtimeKind())
            .bind("version", change.version());
    spec = bindText(spec, "endpoint", change.endpoint());
    String owner = change.ownerId();
    String agent = change.agentId();
    String previous = secrets == null ? null : secrets.previous();
    spec =
        bindText(
            spec,
            "secret",
            secrets == null
                ? null
                : atRest.encrypt(secrets.current(), binding(owner, agent, "secret")));
    spec =
        bindText(
            spec,
            "previous",
            previous == null
                ? null
                : atRest.encrypt(previous, binding(owner, agent, "previous_secret")));
    spec = bindText(spec, "key", secrets == null ? null : atRest.keyId());
    spec =
        previous == null || change.previousValidUntil() == null
            ? spec.bindNull("until", OffsetDateTime.class)
            : spec.bind("until", JobStore.utc(Instant.parse(change.previousValidUntil())));
    return spec.fetch().rowsUpdated().then();
  }

  /** The agent, when it runs as a webhook with an endpoint and a secret. */
  public Mono<PushAgent> webhook(AgentKey agent) {
    return db.sql(
            "SELECT owner_id, agent_id, endpoint, secret, previous_secret, previous_valid_until,"
                + " secrets_key_id FROM push_agent WHERE owner_id = :owner AND agent_id = :agent"
                + " AND runtime_kind = 'webhook' AND endpoint IS NOT NULL AND secret IS NOT NULL")
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .map(
            row -> {
              OffsetDateTime until = row.get("previous_valid_until", OffsetDateTime.class);
              String owner = row.get("owner_id", String.class);
              String id = row.get("agent_id", String.class);
              SigningSecrets secrets =
                  opened(
                      owner,
                      id,
                      row.get("secret", String.class),
                      row.get("previous_secret", String.class),
                      row.get("secrets_key_id", String.class));
              return new PushAgent(
                  owner,
                  id,
                  row.get("endpoint", String.class),
                  secrets.current(),
                  secrets.previous(),
                  secrets.previous() == null || until == null ? null : until.toInstant());
            })
        .one();
  }

  /**
   * Encrypts with the current key, a batch at a time, every secret kept in plaintext (written
   * before encryption, or by a replica of that version) or under an older key; the number of rows
   * encrypted. A row changed meanwhile (a newer version applied) is left to that change.
   */
  public Mono<Long> encryptStale() {
    return encryptBatch()
        .expand(done -> done == UPGRADE_BATCH ? encryptBatch() : Mono.empty())
        .reduce(0L, Long::sum);
  }

  private Mono<Long> encryptBatch() {
    return db.sql(
            "SELECT owner_id, agent_id, secret, previous_secret, secrets_key_id, version"
                + " FROM push_agent WHERE secret IS NOT NULL"
                + " AND secrets_key_id IS DISTINCT FROM :key LIMIT :max")
        .bind("key", atRest.keyId())
        .bind("max", UPGRADE_BATCH)
        .map(
            row ->
                new Stale(
                    row.get("owner_id", String.class),
                    row.get("agent_id", String.class),
                    row.get("secret", String.class),
                    row.get("previous_secret", String.class),
                    row.get("secrets_key_id", String.class),
                    row.get("version", Long.class)))
        .all()
        .collectList()
        .flatMapMany(Flux::fromIterable)
        .concatMap(this::encrypt)
        .reduce(0L, Long::sum);
  }

  private Mono<Long> encrypt(Stale row) {
    SigningSecrets secrets;
    try {
      secrets = opened(row.ownerId(), row.agentId(), row.secret(), row.previous(), row.keyId());
    } catch (RuntimeException unreadable) {
      // Under a key no longer configured: left as it is, and counted as not upgraded.
      return Mono.just(0L);
    }
    DatabaseClient.GenericExecuteSpec spec =
        db.sql(
                """
                UPDATE push_agent SET secret = :secret, previous_secret = :previous,
                    secrets_key_id = :key
                WHERE owner_id = :owner AND agent_id = :agent AND version = :version
                  AND secrets_key_id IS NOT DISTINCT FROM :was
                """)
            .bind("owner", row.ownerId())
            .bind("agent", row.agentId())
            .bind("version", row.version())
            .bind("key", atRest.keyId())
            .bind(
                "secret",
                atRest.encrypt(secrets.current(), binding(row.ownerId(), row.agentId(), "secret")));
    spec = bindText(spec, "was", row.keyId());
    spec =
        bindText(
            spec,
            "previous",
            secrets.previous() == null
                ? null
                : atRest.encrypt(
                    secrets.previous(), binding(row.ownerId(), row.agentId(), "previous_secret")));
    return spec.fetch().rowsUpdated();
  }

  private record Stale(
      String ownerId,
      String agentId,
      String secret,
      @Nullable String previous,
      @Nullable String keyId,
      long version) {}

  /** The row's secrets: decrypted under the key its id names, or as they are when it names none. */
  private SigningSecrets opened(
      String owner,
      String agent,
      String secret,
      @Nullable String previous,
      @Nullable String keyId) {
    if (keyId == null) {
      return new SigningSecrets(secret, previous);
    }
    return new SigningSecrets(
        atRest.decrypt(secret, binding(owner, agent, "secret")),
        previous == null
            ? null
            : atRest.decrypt(previous, binding(owner, agent, "previous_secret")));
  }

  private static Map<String, String> binding(String owner, String agent, String column) {
    return Map.of("owner_id", owner, "agent_id", agent, "column", column);
  }

  /** Webhook agents with a job that waits to be pushed (or reconciled), at most {@code max}. */
  public Flux<AgentKey> webhookAgentsWithOfferableJobs(int max) {
    return agentsWithOfferableJobs("webhook", max);
  }

  /** The endpoint of an agent that runs as {@code kind} (webhook or a2a). */
  public Mono<String> endpoint(AgentKey agent, String kind) {
    return db.sql(
            "SELECT endpoint FROM push_agent WHERE owner_id = :owner AND agent_id = :agent"
                + " AND runtime_kind = :kind AND endpoint IS NOT NULL")
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .bind("kind", kind)
        .map(row -> row.get("endpoint", String.class))
        .one();
  }

  /**
   * Agents running as {@code kind} with a job that waits to be sent (or reconciled), at most {@code
   * max}; jobs of disconnected teams wait for the reconnect.
   */
  public Flux<AgentKey> agentsWithOfferableJobs(String kind, int max) {
    return db.sql(
            """
            SELECT DISTINCT p.owner_id, p.agent_id FROM push_agent p
            WHERE p.runtime_kind = :kind AND EXISTS (
                SELECT 1 FROM job j WHERE j.owner_id = p.owner_id AND j.agent_id = p.agent_id
                AND (j.state = 'waiting_worker' OR (j.state = 'admitted' AND j.lease_token IS NULL)
                     OR (j.state = 'unknown' AND j.reoffer_due AND NOT EXISTS (
                         SELECT 1 FROM platform.roster_team t
                         WHERE t.team_id = j.team_id AND t.status = 'disconnected'))))
            LIMIT :max
            """)
        .bind("kind", kind)
        .bind("max", max)
        .map(
            row ->
                new AgentKey(row.get("owner_id", String.class), row.get("agent_id", String.class)))
        .all();
  }

  private static DatabaseClient.GenericExecuteSpec bindText(
      DatabaseClient.GenericExecuteSpec spec,
      String name,
      @org.jspecify.annotations.Nullable String value) {
    return value == null ? spec.bindNull(name, String.class) : spec.bind(name, value);
  }
}
