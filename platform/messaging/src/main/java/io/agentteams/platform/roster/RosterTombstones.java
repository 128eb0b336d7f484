package io.agentteams.platform.roster;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * Purges the tombstones of deleted teams from the roster projection once they are older than the
 * tombstone retention, in batches (rows locked with {@code SKIP LOCKED}, so replicas purging side
 * by side never wait on each other). A periodic loop runs it every {@code
 * tombstone-purge-interval}; {@link Rosters} ignores events older than the same retention, so no
 * purged team comes back.
 *
 * <p>Meter: {@code agentteams.roster.tombstones.purged} counts the purged teams.
 */
public final class RosterTombstones {

  /** Teams purged in one statement at most. */
  static final int BATCH = 1000;

  private static final String PURGE =
      """
      DELETE FROM platform.roster_team WHERE team_id IN (
        SELECT team_id FROM platform.roster_team
        WHERE status = 'deleted' AND updated_at < now() - make_interval(secs => :retention)
        ORDER BY updated_at LIMIT :batch FOR UPDATE SKIP LOCKED)
      """;

  private final DatabaseClient db;
  private final Duration retention;
  private final Counter purged;

  public RosterTombstones(DatabaseClient db, Duration retention, MeterRegistry meters) {
    this.db = db;
    this.retention = retention;
    this.purged =
        Counter.builder("agentteams.roster.tombstones.purged")
            .description("Deleted teams' tombstones purged from the roster projection")
            .register(meters);
  }

  /** Purges every expired tombstone, a batch at a time; the number purged. */
  public Mono<Long> purge() {
    return Mono.defer(
            () ->
                db.sql(PURGE)
                    .bind("retention", (double) retention.toSeconds())
                    .bind("batch", BATCH)
                    .fetch()
                    .rowsUpdated())
        .doOnNext(purged::increment)
        .repeat()
        .takeUntil(deleted -> deleted < BATCH)
        .reduce(0L, Long::sum);
  }
}
