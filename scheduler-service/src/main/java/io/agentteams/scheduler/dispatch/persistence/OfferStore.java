package io.agentteams.scheduler.dispatch.persistence;

import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.persistence.JobStore;
import java.time.Instant;
import java.util.Collection;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The dispatch queries: offerable jobs of an agent, a worker's live leases, lapsed leases,
 * long-unknown outcomes, and jobs that no worker took in time.
 */
@Repository
public class OfferStore {

  /**
   * The job's team is disconnected: its unknown jobs wait for the owner's reconnect before their
   * runtime is asked about them again.
   */
  public static final String DISCONNECTED_TEAM =
      "SELECT 1 FROM platform.roster_team t WHERE t.team_id = job.team_id"
          + " AND t.status = 'disconnected'";

  private final DatabaseClient db;

  public OfferStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * Locks up to {@code max} of the agent's offerable jobs, oldest first, skipping jobs another
   * stream (on any replica) is claiming right now. An unknown job of a disconnected team is not
   * offerable until the team is reconnected.
   */
  public Flux<Job> lockOfferable(AgentKey agent, int max) {
    return db.sql(
            "SELECT "
                + JobStore.COLUMNS
                + " FROM job WHERE owner_id = :owner AND agent_id = :agent"
                + " AND ((state = 'admitted' AND lease_token IS NULL)"
                + " OR (state = 'unknown' AND reoffer_due AND NOT EXISTS ("
                + DISCONNECTED_TEAM
                + ")))"
                + " ORDER BY seq LIMIT :max FOR UPDATE SKIP LOCKED")
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .bind("max", max)
        .map(JobStore::read)
        .all();
  }

  /**
   * Which of the agents have jobs their workers' streams would act on: offerable (as {@link
   * #lockOfferable}) or waiting for a worker (as {@link #lockWaitingForWorker}). Locks nothing.
   */
  public Flux<AgentKey> withWorkForStreams(Collection<AgentKey> agents) {
    return db.sql(
            "SELECT DISTINCT job.owner_id, job.agent_id FROM job"
                + " JOIN unnest(:owners::text[], :agents::text[]) AS s(owner_id, agent_id)"
                + " ON job.owner_id = s.owner_id AND job.agent_id = s.agent_id"
                + " WHERE (job.state = 'admitted' AND job.lease_token IS NULL)"
                + " OR job.state = 'waiting_worker'"
                + " OR (job.state = 'unknown' AND job.reoffer_due AND NOT EXISTS ("
                + DISCONNECTED_TEAM
                + "))")
        .bind("owners", agents.stream().map(AgentKey::ownerId).toArray(String[]::new))
        .bind("agents", agents.stream().map(AgentKey::agentId).toArray(String[]::new))
        .map(
            row ->
                new AgentKey(row.get("owner_id", String.class), row.get("agent_id", String.class)))
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

  /** Admitted jobs that no runtime has taken, admitted before {@code before}. */
  public Flux<UUID> untakenSince(Instant before, int max) {
    return db.sql(
            "SELECT id FROM job WHERE state = 'admitted' AND lease_token IS NULL"
                + " AND admitted_at < :before ORDER BY admitted_at LIMIT :max")
        .bind("before", JobStore.utc(before))
        .bind("max", max)
        .map(row -> row.get("id", UUID.class))
        .all();
  }

  /**
   * Admitted jobs that no runtime has taken, of pull agents (as their runtime says) with no worker
   * connected now, on any replica: no worker can take them, so they need not wait for the offer
   * time-out. An agent whose runtime is not known yet is left to the time-out.
   */
  public Flux<UUID> untakenWithoutWorker(Instant now, int max) {
    return db.sql(
            """
            SELECT j.id FROM job j
            WHERE j.state = 'admitted' AND j.lease_token IS NULL
              AND EXISTS (SELECT 1 FROM push_agent a
                          WHERE a.owner_id = j.owner_id AND a.agent_id = j.agent_id
                            AND a.runtime_kind = 'pull')
              AND NOT EXISTS (SELECT 1 FROM worker_presence p
                              WHERE p.owner_id = j.owner_id AND p.agent_id = j.agent_id
                                AND p.expires_at > :now)
            ORDER BY j.admitted_at LIMIT :max
            """)
        .bind("now", JobStore.utc(now))
        .bind("max", max)
        .map(row -> row.get("id", UUID.class))
        .all();
  }

  /** The agent's jobs whose live lease the worker holds: what it is running or about to run. */
  public Mono<Integer> leasesHeldBy(AgentKey agent, String holder) {
    return db.sql(
            "SELECT count(*) AS held FROM job WHERE owner_id = :owner AND agent_id = :agent"
                + " AND lease_holder = :holder AND lease_token IS NOT NULL"
                + " AND state IN ('admitted', 'running', 'unknown') AND NOT reoffer_due")
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .bind("holder", holder)
        .map(row -> row.get("held", Long.class).intValue())
        .one();
  }

  /**
   * The agent's jobs already on their way to a worker without one having taken them: admitted and
   * not yet offered, or queued again after an admission (an answer, or a job that waited for a
   * worker).
   */
  public Mono<Integer> onTheWay(AgentKey agent) {
    return db.sql(
            "SELECT count(*) AS pending FROM job WHERE owner_id = :owner AND agent_id = :agent"
                + " AND ((state = 'admitted' AND lease_token IS NULL)"
                + " OR (state = 'queued' AND admissions > 0))")
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .map(row -> row.get("pending", Long.class).intValue())
        .one();
  }

  /** Locks up to {@code max} of the agent's jobs waiting for a worker, in queue order. */
  public Flux<Job> lockWaitingForWorker(AgentKey agent, int max) {
    return db.sql(
            "SELECT "
                + JobStore.COLUMNS
                + " FROM job WHERE owner_id = :owner AND agent_id = :agent"
                + " AND state = 'waiting_worker'"
                + " ORDER BY queue_position LIMIT :max FOR UPDATE SKIP LOCKED")
        .bind("owner", agent.ownerId())
        .bind("agent", agent.agentId())
        .bind("max", max)
        .map(JobStore::read)
        .all();
  }
}
