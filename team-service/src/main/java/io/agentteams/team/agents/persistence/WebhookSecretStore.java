package io.agentteams.team.agents.persistence;

import io.agentteams.team.agents.domain.AgentId;
import io.agentteams.team.agents.domain.WebhookSecrets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/**
 * Webhook agents' signing secrets, and the version that orders each agent's runtime changes.
 * Callers hold the agent's row lock (or its owner's registration lock) while they write.
 */
@Repository
public class WebhookSecretStore {

  private final DatabaseClient db;

  public WebhookSecretStore(DatabaseClient db) {
    this.db = db;
  }

  /** The agent's secrets, empty when it has none. */
  public Mono<WebhookSecrets> find(String ownerId, AgentId agentId) {
    return db.sql(
            "SELECT secret, previous_secret, previous_valid_until FROM agent_webhook_secret"
                + " WHERE owner_id = :owner AND agent_id = :agent")
        .bind("owner", ownerId)
        .bind("agent", agentId.value())
        .map(
            row -> {
              OffsetDateTime until = row.get("previous_valid_until", OffsetDateTime.class);
              return new WebhookSecrets(
                  row.get("secret", String.class),
                  row.get("previous_secret", String.class),
                  until == null ? null : until.toInstant());
            })
        .one();
  }

  /** Stores the agent's secrets, replacing any it had. */
  public Mono<Void> save(String ownerId, AgentId agentId, WebhookSecrets secrets) {
    DatabaseClient.GenericExecuteSpec spec =
        db.sql(
                """
                INSERT INTO agent_webhook_secret
                    (owner_id, agent_id, secret, previous_secret, previous_valid_until)
                VALUES (:owner, :agent, :secret, :previous, :until)
                ON CONFLICT (owner_id, agent_id) DO UPDATE
                  SET secret = excluded.secret, previous_secret = excluded.previous_secret,
                      previous_valid_until = excluded.previous_valid_until
                """)
            .bind("owner", ownerId)
            .bind("agent", agentId.value())
            .bind("secret", secrets.current());
    spec =
        secrets.previous() == null
            ? spec.bindNull("previous", String.class)
            : spec.bind("previous", secrets.previous());
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
