package io.agentteams.team.teams.persistence;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/**
 * Claims teams whose provisioning is due, with a lease and a fencing token in the team row, so any
 * number of workers (threads or replicas) share the work and a worker that lost its claim can no
 * longer write. All times are the database's.
 */
@Repository
public class ProvisioningStore {

  private static final String CLAIM =
      """
      UPDATE team SET provisioning_fence = provisioning_fence + 1,
          provisioning_due_at = now() + make_interval(secs => :lease)
      WHERE id IN (
          SELECT id FROM team
          WHERE provisioning_due_at <= now() %s
          ORDER BY provisioning_due_at
          LIMIT :limit
          FOR UPDATE SKIP LOCKED)
      RETURNING id, provisioning_fence
      """;

  private final DatabaseClient db;

  public ProvisioningStore(DatabaseClient db) {
    this.db = db;
  }

  /** A worker's claim on one team's provisioning. */
  public record Claim(UUID teamId, long fence) {}

  /**
   * Claims up to {@code limit} teams whose provisioning is due (new, retrying, or whose previous
   * claim's lease ran out), or only {@code teamId} when given.
   */
  public Mono<List<Claim>> claimDue(int limit, Duration lease, @Nullable UUID teamId) {
    DatabaseClient.GenericExecuteSpec claim =
        db.sql(CLAIM.formatted(teamId == null ? "" : "AND id = :team"))
            .bind("lease", seconds(lease))
            .bind("limit", limit);
    if (teamId != null) {
      claim = claim.bind("team", teamId);
    }
    return claim
        .map(row -> new Claim(row.get("id", UUID.class), row.get("provisioning_fence", Long.class)))
        .all()
        .collectList();
  }

  /** Extends the claim's lease; false when the claim is no longer the latest. */
  public Mono<Boolean> renew(Claim claim, Duration lease) {
    return db.sql(
            """
            UPDATE team SET provisioning_due_at = now() + make_interval(secs => :lease)
            WHERE id = :team AND provisioning_fence = :fence AND provisioning_due_at IS NOT NULL
            """)
        .bind("team", claim.teamId())
        .bind("fence", claim.fence())
        .bind("lease", seconds(lease))
        .fetch()
        .rowsUpdated()
        .map(updated -> updated > 0);
  }

  /** Counts a failed attempt at a member's conversation and remembers why; returns the count. */
  public Mono<Integer> recordAttempt(UUID teamId, String member, String error) {
    return db.sql(
            """
            UPDATE member_provisioning SET attempts = attempts + 1, last_error = :error,
                updated_at = now()
            WHERE team_id = :team AND member_name = :member
            RETURNING attempts
            """)
        .bind("team", teamId)
        .bind("member", member)
        .bind("error", error)
        .map(row -> row.get("attempts", Integer.class))
        .one();
  }

  /** Releases the claim until {@code backoff} from now, when provisioning is due again. */
  public Mono<Void> retryAfter(Claim claim, Duration backoff) {
    return db.sql(
            """
            UPDATE team SET provisioning_due_at = now() + make_interval(secs => :backoff)
            WHERE id = :team AND provisioning_fence = :fence AND provisioning_due_at IS NOT NULL
            """)
        .bind("team", claim.teamId())
        .bind("fence", claim.fence())
        .bind("backoff", seconds(backoff))
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Teams with provisioning under way or waiting. */
  public Mono<Long> countDue() {
    return db.sql("SELECT count(*) AS n FROM team WHERE provisioning_due_at IS NOT NULL")
        .map(row -> row.get("n", Long.class))
        .one();
  }

  private static double seconds(Duration duration) {
    return duration.toMillis() / 1000.0;
  }
}
