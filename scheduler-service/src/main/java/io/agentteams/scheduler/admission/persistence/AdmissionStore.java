package io.agentteams.scheduler.admission.persistence;

import io.agentteams.platform.outbox.Outbox;
import io.agentteams.scheduler.admission.domain.Candidate;
import io.agentteams.scheduler.admission.domain.Rotation;
import io.agentteams.scheduler.budget.domain.Scope;
import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.budget.persistence.LedgerStore;
import io.agentteams.scheduler.budget.persistence.LedgerStore.JobAccount;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobKind;
import io.agentteams.scheduler.job.persistence.JobStore;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The admission state in Postgres: the control row (capacity and rotation) whose lock serialises
 * passes across replicas, the slot rows that bound active jobs, and the queries a pass needs.
 */
@Repository
public class AdmissionStore {

  /** The control row as a pass reads it, with the slots held when it was read. */
  public record Control(int capacity, int held, Rotation rotation) {}

  /** A candidate with its kind and whether it resumes a conversation. */
  public record CandidateRow(Candidate candidate, JobKind kind, boolean resume) {}

  /** A queued job this transaction locked, with what the ledger knows of it. */
  public record LockedJob(Job job, JobAccount account) {}

  /** Queued jobs of one owner. */
  public record OwnerDepth(String ownerId, long queued) {}

  /** Admissions of one owner in a window. */
  public record OwnerAdmissions(String ownerId, long admitted) {}

  /**
   * Jobs that wait on someone other than admission.
   *
   * @param waitingInput jobs waiting for an answer to their question (they keep no slot)
   * @param waitingWorker jobs no runtime took in time, waiting for a worker (they keep no slot)
   * @param unoffered admitted jobs that no runtime has taken yet (no worker connected, or busy)
   * @param oldestUnofferedSeconds how long the oldest of those has waited since its admission
   * @param oldestQueuedSeconds how long the oldest queued job has waited for a slot
   */
  public record Waiting(
      long waitingInput,
      long waitingWorker,
      long unoffered,
      double oldestUnofferedSeconds,
      double oldestQueuedSeconds) {}

  private static final String CANDIDATES =
      """
      WITH heads AS (
          SELECT DISTINCT ON (conversation_id)
                 id, team_id, owner_id, conversation_id, chain_id, kind, resume, state,
                 queue_position
          FROM job
          WHERE state IN ('queued', 'admitted', 'running', 'waiting_input', 'waiting_worker',
                          'unknown')
          ORDER BY conversation_id, conversation_rank, seq
      ), ranked AS (
          SELECT h.*, row_number() OVER (PARTITION BY owner_id ORDER BY queue_position) AS rank
          FROM heads h
          WHERE state = 'queued'
            -- A disconnected team's requests stay queued until its owner reconnects it.
            AND NOT EXISTS (SELECT 1 FROM platform.roster_team t
                            WHERE t.team_id = h.team_id AND t.status = 'disconnected')
      )
      SELECT r.id, r.team_id, r.owner_id, r.conversation_id, r.kind, r.resume, r.queue_position
      FROM ranked r
      WHERE r.rank <= :perOwner
      """;

  // A job the pass reserved for records its hold in the same statement (held: its scopes, as
  // LedgerStore.heldOnValue writes them); a job that reserved nothing (held is null) keeps what it
  // holds, as a resumed conversation does.
  private static final String MARK_ADMITTED =
      """
      UPDATE job j
      SET state = 'admitted', revision = v.revision, admissions = v.admissions,
          admitted_by = :replica, admitted_at = :now, lease_token = NULL, lease_expires_at = NULL,
          lease_ttl_ms = NULL, lease_holder = NULL, reoffer_due = false, updated_at = :now,
          reserved_tokens = CASE WHEN v.held IS NULL THEN j.reserved_tokens
                                 ELSE :holdTokens::bigint END,
          reserved_cost = CASE WHEN v.held IS NULL THEN j.reserved_cost
                               ELSE :holdCost::bigint END,
          reserved_on = COALESCE(string_to_array(v.held, chr(31)), j.reserved_on)
      FROM unnest(:ids::uuid[], :revisions::bigint[], :admissions::int[], :held::text[])
           AS v(id, revision, admissions, held)
      WHERE j.id = v.id AND j.state = 'queued'
      """;

  private final DatabaseClient db;

  public AdmissionStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * Sets the global capacity and makes sure enough slot rows exist. Every replica does this at
   * start-up with the same configured value; rows beyond the capacity are never handed out.
   */
  public Mono<Void> configureCapacity(int slots) {
    return db.sql("UPDATE admission_control SET capacity = :slots WHERE id = 1")
        .bind("slots", slots)
        .fetch()
        .rowsUpdated()
        .then(
            db.sql(
                    "INSERT INTO admission_slot (slot_no) SELECT generate_series(0, :slots - 1)"
                        + " ON CONFLICT (slot_no) DO NOTHING")
                .bind("slots", slots)
                .fetch()
                .rowsUpdated())
        .then();
  }

  /**
   * Locks the control row for this transaction unless another replica's pass holds it, and counts
   * the slots held. Empty when another pass runs: that replica received the same wake-up and will
   * pass again after its current pass, so skipping loses nothing and nobody waits.
   */
  public Mono<Control> lockControl() {
    return db.sql(
            """
            SELECT capacity, rotation, served_in_turn,
                   (SELECT count(*) FROM admission_slot WHERE job_id IS NOT NULL) AS held
            FROM admission_control WHERE id = 1
            FOR UPDATE SKIP LOCKED
            """)
        .map(
            row -> {
              String[] owners = row.get("rotation", String[].class);
              List<String> rotation = owners == null ? List.of() : Arrays.asList(owners);
              int served = row.get("served_in_turn", Integer.class);
              return new Control(
                  row.get("capacity", Integer.class),
                  row.get("held", Long.class).intValue(),
                  new Rotation(rotation, rotation.isEmpty() ? 0 : served));
            })
        .one();
  }

  /** Slots each owner holds now; an owner holding none is not named. */
  public Mono<Map<String, Integer>> heldByOwner() {
    return db.sql(
            "SELECT j.owner_id, count(*) AS held FROM admission_slot s"
                + " JOIN job j ON j.id = s.job_id GROUP BY j.owner_id")
        .map(row -> Map.entry(row.get("owner_id", String.class), row.get("held", Long.class)))
        .all()
        .collectMap(Map.Entry::getKey, entry -> entry.getValue().intValue());
  }

  /** Slots held now, by any job. */
  public Mono<Integer> heldSlots() {
    return db.sql("SELECT count(*) AS held FROM admission_slot WHERE job_id IS NOT NULL")
        .map(row -> row.get("held", Long.class).intValue())
        .one();
  }

  /**
   * Admissible jobs: the queued head of every conversation, at most {@code perOwner} per owner (a
   * pass never admits more than that many for one owner).
   */
  public Flux<CandidateRow> candidates(int perOwner) {
    return db.sql(CANDIDATES)
        .bind("perOwner", perOwner)
        .map(
            row ->
                new CandidateRow(
                    new Candidate(
                        row.get("id", UUID.class),
                        row.get("owner_id", String.class),
                        row.get("team_id", UUID.class),
                        row.get("conversation_id", String.class),
                        row.get("queue_position", Long.class)),
                    JobKind.fromWire(row.get("kind", String.class)),
                    Boolean.TRUE.equals(row.get("resume", Boolean.class))))
        .all();
  }

  /**
   * Locks those of the jobs that are still queued and that no other transaction holds right now,
   * and reads with each what the ledger knows of it (its run and its hold), which the pass's
   * reservation needs. A job a concurrent cancel holds is skipped rather than waited for.
   */
  public Flux<LockedJob> lockQueued(Collection<UUID> ids) {
    if (ids.isEmpty()) {
      return Flux.empty();
    }
    return db.sql(
            "SELECT "
                + JobStore.COLUMNS
                + ", "
                + LedgerStore.ACCOUNT_COLUMNS
                + " FROM job j WHERE j.id = ANY(:ids) AND j.state = 'queued'"
                + " FOR UPDATE OF j SKIP LOCKED")
        .bind("ids", ids.toArray(UUID[]::new))
        .map(row -> new LockedJob(JobStore.read(row), LedgerStore.account(row)))
        .all();
  }

  /**
   * Takes the outbox ordering lock of each team for this transaction where it is free, and returns
   * the teams whose lock another transaction holds. A pass skips those teams' jobs instead of
   * waiting, so one team's long transaction never holds up admission for everyone else.
   */
  public Mono<Set<UUID>> busyTeams(Collection<UUID> teams) {
    if (teams.isEmpty()) {
      return Mono.just(Set.of());
    }
    return db.sql(
            "SELECT t FROM unnest(:teams::text[]) AS t"
                + " WHERE NOT pg_try_advisory_xact_lock(:namespace, hashtext(t))")
        .bind("teams", teams.stream().map(UUID::toString).toArray(String[]::new))
        .bind("namespace", Outbox.KEY_LOCK_NAMESPACE)
        .map(row -> UUID.fromString(row.get("t", String.class)))
        .all()
        .collect(Collectors.toCollection(HashSet::new))
        .map(busy -> (Set<UUID>) busy);
  }

  /**
   * Writes the admission of jobs the domain admitted, in one statement, with the hold of those the
   * pass reserved for.
   *
   * @param holding the jobs the pass reserved for, with the scopes each holds on
   * @param hold what each of them holds
   */
  public Mono<Void> markAdmitted(
      List<Job> admitted, Map<UUID, List<Scope>> holding, Usage hold, String replica, Instant now) {
    if (admitted.isEmpty()) {
      return Mono.empty();
    }
    return db.sql(MARK_ADMITTED)
        .bind("ids", admitted.stream().map(Job::id).toArray(UUID[]::new))
        .bind("revisions", admitted.stream().map(Job::revision).toArray(Long[]::new))
        .bind("admissions", admitted.stream().map(Job::admissions).toArray(Integer[]::new))
        .bind(
            "held",
            admitted.stream()
                .map(Job::id)
                .map(
                    id -> holding.containsKey(id) ? LedgerStore.heldOnValue(holding.get(id)) : null)
                .toArray(String[]::new))
        .bind("holdTokens", hold.tokens())
        .bind("holdCost", hold.costUnits())
        .bind("replica", replica)
        .bind("now", JobStore.utc(now))
        .fetch()
        .rowsUpdated()
        .flatMap(
            updated ->
                updated == admitted.size()
                    ? Mono.<Void>empty()
                    : Mono.error(
                        new IllegalStateException(
                            "admitted " + updated + " of " + admitted.size() + " locked jobs")));
  }

  /** Hands each admitted job a free slot row; fails (and rolls back) if there are too few. */
  public Mono<Void> assignSlots(List<UUID> jobIds, int capacity, Instant now) {
    if (jobIds.isEmpty()) {
      return Mono.empty();
    }
    return db.sql(
            "SELECT slot_no FROM admission_slot WHERE job_id IS NULL AND slot_no < :capacity"
                + " ORDER BY slot_no LIMIT :n FOR UPDATE")
        .bind("capacity", capacity)
        .bind("n", jobIds.size())
        .map(row -> row.get("slot_no", Integer.class))
        .all()
        .collectList()
        .flatMap(
            slots -> {
              if (slots.size() < jobIds.size()) {
                return Mono.error(
                    new IllegalStateException(
                        "only " + slots.size() + " free slots for " + jobIds.size() + " jobs"));
              }
              return db.sql(
                      "UPDATE admission_slot s SET job_id = v.job_id, held_since = :now"
                          + " FROM unnest(:slots::int[], :jobs::uuid[]) AS v(slot_no, job_id)"
                          + " WHERE s.slot_no = v.slot_no")
                  .bind("slots", slots.toArray(Integer[]::new))
                  .bind("jobs", jobIds.toArray(UUID[]::new))
                  .bind("now", JobStore.utc(now))
                  .fetch()
                  .rowsUpdated()
                  .then();
            });
  }

  public Mono<Void> saveRotation(Rotation rotation, Instant now) {
    return db.sql(
            "UPDATE admission_control SET rotation = :rotation, served_in_turn = :served,"
                + " passes = passes + 1, updated_at = :now WHERE id = 1")
        .bind("rotation", rotation.owners().toArray(String[]::new))
        .bind("served", rotation.servedInTurn())
        .bind("now", JobStore.utc(now))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Queued jobs per owner. */
  public Flux<OwnerDepth> queueDepths() {
    return db.sql("SELECT owner_id, count(*) AS queued FROM job WHERE state = 'queued' GROUP BY 1")
        .map(
            row -> new OwnerDepth(row.get("owner_id", String.class), row.get("queued", Long.class)))
        .all();
  }

  /**
   * Jobs waiting for an answer, admitted jobs no runtime has taken yet, and how long the oldest
   * queued job has waited.
   */
  public Mono<Waiting> waiting() {
    return db.sql(
            """
            SELECT (SELECT count(*) FROM job WHERE state = 'waiting_input') AS waiting_input,
                   (SELECT count(*) FROM job WHERE state = 'waiting_worker') AS waiting_worker,
                   count(*) AS unoffered,
                   COALESCE(EXTRACT(EPOCH FROM now() - min(admitted_at)), 0)::float8 AS oldest,
                   (SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(queued_at)), 0)::float8
                    FROM job WHERE state = 'queued') AS oldest_queued
            FROM job WHERE state = 'admitted' AND lease_token IS NULL
            """)
        .map(
            row ->
                new Waiting(
                    row.get("waiting_input", Long.class),
                    row.get("waiting_worker", Long.class),
                    row.get("unoffered", Long.class),
                    row.get("oldest", Double.class),
                    row.get("oldest_queued", Double.class)))
        .one();
  }

  /** Admissions since {@code since} of every owner that has queued work now. */
  public Flux<OwnerAdmissions> recentAdmissionsOfBackloggedOwners(Instant since) {
    return db.sql(
            """
            SELECT q.owner_id, count(j.id) AS admitted
            FROM (SELECT DISTINCT owner_id FROM job WHERE state = 'queued') q
            LEFT JOIN job j ON j.owner_id = q.owner_id AND j.admitted_at >= :since
            GROUP BY q.owner_id
            """)
        .bind("since", JobStore.utc(since))
        .map(
            row ->
                new OwnerAdmissions(
                    row.get("owner_id", String.class), row.get("admitted", Long.class)))
        .all();
  }
}
