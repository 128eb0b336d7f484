package io.agentteams.team.agents.persistence;

import io.agentteams.platform.secrets.SecretsAtRest;
import io.agentteams.team.agents.domain.AgentId;
import io.agentteams.team.agents.domain.WebhookSecrets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Webhook agents' signing secrets, and the version that orders each agent's runtime changes.
 * Callers hold the agent's row lock (or its owner's registration lock) while they write. The
 * secrets are kept encrypted ({@link SecretsAtRest}: a key from configuration, its id in {@code
 * secrets_key_id} beside the ciphertexts, each bound to its owner, agent and column); a row whose
 * key id is NULL predates encryption and is read as plaintext until {@link #stale} upgrades it.
 */
@Repository
public class WebhookSecretStore {

  private final DatabaseClient db;
  private final SecretsAtRest atRest;

  public WebhookSecretStore(DatabaseClient db, SecretsAtRest atRest) {
    this.db = db;
    this.atRest = atRest;
  }

  /**
   * An agent's secrets as stored.
   *
   * @param secrets the secrets, decrypted
   * @param keyId the id of the key they are encrypted under; null: stored in plaintext
   */
  public record Kept(WebhookSecrets secrets, @Nullable String keyId) {}

  /** The agent's secrets, empty when it has none. */
  public Mono<WebhookSecrets> find(String ownerId, AgentId agentId) {
    return kept(ownerId, agentId).map(Kept::secrets);
  }

  /** The agent's secrets and the key they are stored under, empty when it has none. */
  public Mono<Kept> kept(String ownerId, AgentId agentId) {
    return db.sql(
            "SELECT secret, previous_secret, previous_valid_until, secrets_key_id"
                + " FROM agent_webhook_secret WHERE owner_id = :owner AND agent_id = :agent")
        .bind("owner", ownerId)
        .bind("agent", agentId.value())
        .map(
            row -> {
              OffsetDateTime until = row.get("previous_valid_until", OffsetDateTime.class);
              String keyId = row.get("secrets_key_id", String.class);
              String secret = row.get("secret", String.class);
              String previous = row.get("previous_secret", String.class);
              if (keyId != null) {
                secret = atRest.decrypt(secret, binding(ownerId, agentId, "secret"));
                previous =
                    previous == null
                        ? null
                        : atRest.decrypt(previous, binding(ownerId, agentId, "previous_secret"));
              }
              return new Kept(
                  new WebhookSecrets(secret, previous, until == null ? null : until.toInstant()),
                  keyId);
            })
        .one();
  }

  /** An owner's agent, by id. */
  public record AgentRef(String ownerId, AgentId agentId) {}

  /**
   * Up to {@code max} agents whose secrets are not under the key that encrypts now: kept in
   * plaintext (written before encryption, or by a replica of that version), or under an older key.
   */
  public Flux<AgentRef> stale(int max) {
    return db.sql(
            "SELECT owner_id, agent_id FROM agent_webhook_secret"
                + " WHERE secrets_key_id IS DISTINCT FROM :key LIMIT :max")
        .bind("key", atRest.keyId())
        .bind("max", max)
        .map(
            row ->
                new AgentRef(
                    row.get("owner_id", String.class),
                    new AgentId(row.get("agent_id", String.class))))
        .all();
  }

  /** Whether secrets stored under {@code keyId} are under the key that encrypts now. */
  public boolean isCurrent(@Nullable String keyId) {
    return keyId != null && atRest.isCurrent(keyId);
  }

  /** Stores the agent's secrets, encrypted with the current key, replacing any it had. */
  public Mono<Void> save(String ownerId, AgentId agentId, WebhookSecrets secrets) {
    DatabaseClient.GenericExecuteSpec spec =
        db.sql(
                """
                INSERT INTO agent_webhook_secret
                    (owner_id, agent_id, secret, previous_secret, previous_valid_until,
                     secrets_key_id)
                VALUES (:owner, :agent, :secret, :previous, :until, :key)
                ON CONFLICT (owner_id, agent_id) DO UPDATE
                  SET secret = excluded.secret, previous_secret = excluded.previous_secret,
                      previous_valid_until = excluded.previous_valid_until,
                      secrets_key_id = excluded.secrets_key_id
                """)
            .bind("owner", ownerId)
            .bind("agent", agentId.value())
            .bind("secret", atRest.encrypt(secrets.current(), binding(ownerId, agentId, "secret")))
            .bind("key", atRest.keyId());
    spec =
        secrets.previous() == null
            ? spec.bindNull("previous", String.class)
            : spec.bind(
                "previous",
                atRest.encrypt(secrets.previous(), binding(ownerId, agentId, "previous_secret")));
    Instant until = secrets.previousValidUntil();
    spec =
        until == null
            ? spec.bindNull("until", OffsetDateTime.class)
            : spec.bind("until", until.atOffset(ZoneOffset.UTC));
    return spec.fetch().rowsUpdated().then();
  }

  /** Forgets the agent's secrets (it no longer runs as a webhook). */
  public Mono<Void> delete(String ownerId, AgentId agentId) {
    return db.sql("DELETE FROM agent_webhook_secret WHERE owner_id = :owner AND agent_id = :agent")
        .bind("owner", ownerId)
        .bind("agent", agentId.value())
        .fetch()
        .rowsUpdated()
        .then();
  }

  private static Map<String, String> binding(String ownerId, AgentId agentId, String column) {
    return Map.of("owner_id", ownerId, "agent_id", agentId.value(), "column", column);
  }

  /** Raises the agent's runtime version and returns the new one. */
  public Mono<Long> nextRuntimeVersion(String ownerId, AgentId agentId) {
    return db.sql(
            "UPDATE agent SET runtime_version = runtime_version + 1"
                + " WHERE owner_id = :owner AND id = :agent RETURNING runtime_version")
        .bind("owner", ownerId)
        .bind("agent", agentId.value())
        .map(row -> row.get("runtime_version", Long.class))
        .one();
  }
}
