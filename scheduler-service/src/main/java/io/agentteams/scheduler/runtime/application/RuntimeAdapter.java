package io.agentteams.scheduler.runtime.application;

import io.agentteams.scheduler.runtime.domain.RuntimeProfile;
import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * One push runtime's wire: how a job claimed for one of its agents is sent and followed. The shared
 * lifecycle ({@link RuntimeDispatcher}) finds the runtime's offerable jobs, claims them under its
 * lease, bounds how many are in flight and hands each one over as a {@link LeasedJob}, through
 * which the adapter renews the lease, reports, retries, fails or leaves the outcome unknown for
 * reconciliation. A Spring bean implementing this is a runtime; nothing else needs registering.
 */
public interface RuntimeAdapter {

  /** How the runtime is named in the catalog, its leases, meters and loops. */
  RuntimeProfile profile();

  /** The runtime's bounds. */
  RuntimeSettings settings();

  /**
   * Sends the claimed job to its agent and follows it until it is reported, failed or left unknown.
   * An error leaves the lease to lapse into a reconciliation.
   */
  Mono<Void> run(LeasedJob job);

  /** Forgets the runtime's records of jobs that ended before {@code endedBefore}, at most max. */
  Mono<Long> forgetFinished(Instant endedBefore, int max);

  /**
   * Periodic work of the runtime besides dispatch and housekeeping (say, carrying cancels over).
   */
  default List<Chore> chores() {
    return List.of();
  }

  /**
   * A periodic piece of a runtime's work.
   *
   * @param loop the loop's name, as its meters and logs show it
   * @param every its period
   * @param run one run
   */
  record Chore(String loop, Duration every, Supplier<? extends Mono<?>> run) {}
}
