package io.agentteams.team.teams.application;

import io.agentteams.team.teams.TeamProperties;
import io.agentteams.team.teams.persistence.TeamStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import reactor.core.publisher.Mono;

/**
 * Purges deleted teams' rows once they are older than {@code tombstone-retention}, a batch at a
 * time until none is left. Deleting a team already erased its members and state; the row that is
 * left (id, owner, name, revision) answers nothing any more (a deleted team is not found), so after
 * the retention nothing needs it: team ids are time-ordered random UUIDs, never reused, and this
 * service writes a team only through its API, never from another service's events. Safe on every
 * replica at once: a batch skips rows another replica holds.
 *
 * <p>Meter: {@code agentteams.team.tombstones.purged} counts the purged teams.
 */
public class TeamTombstones {

  /** Teams purged in one statement at most. */
  static final int BATCH = 1000;

  private final TeamStore teams;
  private final TeamProperties properties;
  private final Clock clock;
  private final Counter purged;

  public TeamTombstones(
      TeamStore teams, TeamProperties properties, Clock clock, MeterRegistry meters) {
    this.teams = teams;
    this.properties = properties;
    this.clock = clock;
    this.purged =
        Counter.builder("agentteams.team.tombstones.purged")
            .description("Deleted teams' rows purged after their retention")
            .register(meters);
  }

  /** Purges every tombstone older than the retention; the number purged. */
  public Mono<Long> purgeOnce() {
    return Mono.defer(
            () ->
                teams.purgeTombstones(
                    clock.instant().minus(properties.tombstoneRetention()), BATCH))
        .doOnNext(purged::increment)
        .repeat()
        .takeUntil(deleted -> deleted < BATCH)
        .reduce(0L, Long::sum);
  }
}
