package io.agentteams.scheduler.runtime.persistence;

import io.agentteams.contracts.agent.AgentRuntimeChanged;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.runtime.domain.PushAgent;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** How owners' agents run, projected from {@link AgentRuntimeChanged}, newest version wins. */
@Repository
public class PushAgentStore {

  private final DatabaseClient db;

  public PushAgentStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * Records the change unless a newer one is already recorded; a deleted agent's endpoint and
   * secrets are dropped, so nothing is pushed to it again.
   */
  public Mono<Void> apply(AgentRuntimeChanged change) {
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
                    previous_secret, previous_valid_until, version)
                VALUES (:owner, :agent, :kind, :endpoint, :secret, :previous, :until, :version)
                ON CONFLICT (owner_id, agent_id) DO UPDATE
                  SET runtime_kind = excluded.runtime_kind, endpoint = excluded.endpoint,
                      secret = excluded.secret, previous_secret = excluded.previous_secret,
                      previous_valid_until = excluded.previous_valid_until,
                      version = excluded.version
                  WHERE push_agent.version < excluded.version
                """)
            .bind("owner", change.ownerId())
            .bind("agent", change.agentId())
            .bind("kind", change.runtimeKind())
            .bind("version", change.version());
    spec = bindText(spec, "endpoint", change.endpoint());
    spec = bindText(spec, "secret", change.webhookSecret());
    spec = bindText(spec, "previous", change.previousWebhookSecret());
    spec =
        change.previousValidUntil() == null
            ? spec.bindNull("until", OffsetDateTime.class)
            : spec.bind("until", JobStore.utc(Instant.parse(change.previousValidUntil())));
    return spec.fetch().rowsUpdated().then();
  }

  /** The agent, when it runs as a webhook with an endpoint and a secret. */
  public Mono<PushAgent> webhook(AgentKey agent) {
    return db.sql(
            "SELECT owner_id, agent_id, endpoint, secret, previous_secret, previous_valid_until"
                + " FROM push_agent WHERE owner_id = :owner AND agent_id = :agent"
                + " AND runtime_kind = 'webhook' AND endpoint IS NOT NULL AND secret IS NOT NULL")
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .map(
            row -> {
              OffsetDateTime until = row.get("previous_valid_until", OffsetDateTime.class);
              return new PushAgent(
                  row.get("owner_id", String.class),
                  row.get("agent_id", String.class),
                  row.get("endpoint", String.class),
                  row.get("secret", String.class),
                  row.get("previous_secret", String.class),
                  until == null ? null : until.toInstant());
            })
        .one();
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
