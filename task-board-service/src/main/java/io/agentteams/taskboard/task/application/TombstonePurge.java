package io.agentteams.taskboard.task.application;

import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import reactor.core.publisher.Mono;

/**
 * Purges deleted tasks' tombstones once they are older than {@code tombstone-retention}, a batch at
 * a time until none is left, so tombstones do not grow without bound. What must never be reused is
 * kept: each board's id counter stays where it is, so a purged task's id is never issued again (and
 * a dependency on it is still refused as deleted). Safe on every replica at once: a batch skips
 * rows another replica holds.
 *
 * <p>Meter: {@code agentteams.taskboard.tombstones.purged} counts the purged tombstones.
 */
public class TombstonePurge {

  private final TaskStore store;
  private final TaskBoardProperties properties;
  private final Clock clock;
  private final Counter purged;

  public TombstonePurge(
      TaskStore store, TaskBoardProperties properties, Clock clock, MeterRegistry meters) {
    this.store = store;
    this.properties = properties;
    this.clock = clock;
    this.purged =
        Counter.builder("agentteams.taskboard.tombstones.purged")
            .description("Deleted tasks' tombstones purged after their retention")
            .register(meters);
  }

  /** Purges every tombstone older than the retention; the number purged. */
  public Mono<Long> purgeOnce() {
    return Mono.defer(
            () ->
                store.purgeTombstones(
                    clock.instant().minus(properties.tombstoneRetention()),
                    properties.tombstonePurgeBatch()))
        .doOnNext(purged::increment)
        .repeat()
        .takeUntil(deleted -> deleted < properties.tombstonePurgeBatch())
        .reduce(0L, Long::sum);
  }
}
