package io.agentteams.scheduler.dispatch.persistence;

import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.persistence.JobStore;
import java.time.Instant;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;

/** The dispatch queries: offerable jobs of an agent, lapsed leases, long-unknown outcomes. */
@Repository
public class OfferStore {

  private final DatabaseClient db;

  public OfferStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * Locks up to {@code max} of the agent's offerable jobs, oldest first, skipping jobs another
   * stream (on any replica) is claiming right now.
   */
  public Flux<Job> lockOfferable(AgentKey agent, int max) {
    return db.sql(
            "SELECT "
                + JobStore.COLUMNS
                + " FROM job WHERE owner_id = :owner AND agent_id = :agent"
                + " AND ((state = 'admitted' AND lease_token IS NULL)"
                + " OR (state = 'unknown' AND reoffer_due))"
                + " ORDER BY seq LIMIT :max FOR UPDATE SKIP LOCKED")
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .bind("max", max)
        .map(JobStore::read)
        .all();
  }

  /** Jobs whose lease lapsed and that the sweeper has not yet handled. */
  public Flux<UUID> lapsedLeases(Instant now, int max) {
    return db.sql(
            "SELECT id FROM job WHERE state IN ('admitted', 'running', 'unknown')"
                + " AND lease_expires_at < :now AND NOT (state = 'unknown' AND reoffer_due)"
                + " ORDER BY lease_expires_at LIMIT :max")
        .bind("now", JobStore.utc(now))
        .bind("max", max)
        .map(row -> row.get("id", UUID.class))
        .all();
  }

  /** Jobs unknown since before {@code before}. */
  public Flux<UUID> unknownSince(Instant before, int max) {
    return db.sql(
            "SELECT id FROM job WHERE state = 'unknown' AND unknown_since < :before"
                + " ORDER BY unknown_since LIMIT :max")
        .bind("before", JobStore.utc(before))
        .bind("max", max)
        .map(row -> row.get("id", UUID.class))
        .all();
  }
}
