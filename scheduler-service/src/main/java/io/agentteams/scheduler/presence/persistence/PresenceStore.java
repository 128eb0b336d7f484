package io.agentteams.scheduler.presence.persistence;

import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.presence.domain.WorkerPresence;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The presence rows: one per open job stream, live while {@code expires_at} lies ahead. Times come
 * from the caller's clock, so what counts as live is decided the same way everywhere.
 */
@Repository
public class PresenceStore {

  private final DatabaseClient db;

  public PresenceStore(DatabaseClient db) {
    this.db = db;
  }

  /** A stream opened on {@code replica}. */
  public Mono<Void> open(
      UUID streamId,
      String ownerId,
      String agentId,
      String workerId,
      String replica,
      Instant now,
      Instant expiresAt) {
    return db.sql(
            """
            INSERT INTO worker_presence
                (stream_id, owner_id, agent_id, worker_id, replica_id, connected_at, expires_at)
            VALUES (:stream, :owner, :agent, :worker, :replica, :now, :expires)
            """)
        .bind("stream", streamId)
        .bind("owner", ownerId)
        .bind("agent", agentId)
        .bind("worker", workerId)
        .bind("replica", replica)
        .bind("now", JobStore.utc(now))
        .bind("expires", JobStore.utc(expiresAt))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** The streams stay open: their presence lasts until {@code expiresAt}. */
  public Mono<Long> renew(Collection<UUID> streamIds, Instant expiresAt) {
    if (streamIds.isEmpty()) {
      return Mono.just(0L);
    }
    return db.sql("UPDATE worker_presence SET expires_at = :expires WHERE stream_id = ANY(:ids)")
        .bind("expires", JobStore.utc(expiresAt))
        .bind("ids", streamIds.toArray(UUID[]::new))
        .fetch()
        .rowsUpdated();
  }

  /** A stream closed: the agent whose stream it was, if its row was still there. */
  public Mono<AgentKey> close(UUID streamId) {
    return db.sql(
            "DELETE FROM worker_presence WHERE stream_id = :stream RETURNING owner_id, agent_id")
        .bind("stream", streamId)
        .map(
            row ->
                new AgentKey(row.get("owner_id", String.class), row.get("agent_id", String.class)))
        .one();
  }

  /**
   * Forgets presence that lapsed before {@code now} (its replica died), at most {@code max} rows;
   * the agents whose rows went.
   */
  public Mono<List<AgentKey>> forgetLapsed(Instant now, int max) {
    return db.sql(
            """
            DELETE FROM worker_presence WHERE stream_id IN (
                SELECT stream_id FROM worker_presence WHERE expires_at < :now LIMIT :max)
            RETURNING owner_id, agent_id
            """)
        .bind("now", JobStore.utc(now))
        .bind("max", max)
        .map(
            row ->
                new AgentKey(row.get("owner_id", String.class), row.get("agent_id", String.class)))
        .all()
        .distinct()
        .collectList();
  }

  /** How many streams of the agent are live at {@code now}. */
  public Mono<Integer> streams(AgentKey agent, Instant now) {
    return db.sql(
            "SELECT count(*) AS n FROM worker_presence"
                + " WHERE owner_id = :owner AND agent_id = :agent AND expires_at > :now")
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .bind("now", JobStore.utc(now))
        .map(row -> row.get("n", Long.class).intValue())
        .one();
  }

  /** A team of the owner with members bound to the agent, from the roster projection. */
  public record Binding(UUID teamId, List<String> members) {}

  /** The owner's teams (not deleted) that have members bound to the agent. */
  public Flux<Binding> bindings(AgentKey agent) {
    return db.sql(
            """
            SELECT t.team_id, array_agg(m.name ORDER BY m.name) AS members
            FROM platform.roster_team t
            JOIN platform.roster_member m ON m.team_id = t.team_id
            WHERE t.owner_id = :owner AND m.agent_id = :agent AND t.status <> 'deleted'
            GROUP BY t.team_id
            ORDER BY t.team_id
            """)
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .map(
            row ->
                new Binding(
                    row.get("team_id", UUID.class), List.of(row.get("members", String[].class))))
        .all();
  }

  /** The owner's agents with a live stream at {@code now}. */
  public Flux<WorkerPresence> connected(String ownerId, Instant now) {
    return db.sql(
            """
            SELECT agent_id, count(*) AS streams, min(connected_at) AS since
            FROM worker_presence WHERE owner_id = :owner AND expires_at > :now
            GROUP BY agent_id ORDER BY agent_id
            """)
        .bind("owner", ownerId)
        .bind("now", JobStore.utc(now))
        .map(
            row ->
                new WorkerPresence(
                    row.get("agent_id", String.class),
                    row.get("streams", Long.class).intValue(),
                    row.get("since", OffsetDateTime.class).toInstant()))
        .all();
  }

  /** Agents with a live stream at {@code now}, across every owner. */
  public Mono<Long> connectedAgents(Instant now) {
    return db.sql(
            "SELECT count(DISTINCT (owner_id, agent_id)) AS n FROM worker_presence"
                + " WHERE expires_at > :now")
        .bind("now", JobStore.utc(now))
        .map(row -> row.get("n", Long.class))
        .one();
  }
}
