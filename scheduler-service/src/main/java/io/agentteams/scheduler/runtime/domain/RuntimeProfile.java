package io.agentteams.scheduler.runtime.domain;

import java.util.List;

/**
 * How one push runtime is named where the shared lifecycle shows it: in the agent catalog, in the
 * leases it holds, in its meters (names dashboards and alerts read) and in its periodic loops.
 *
 * @param kind the agents' runtime kind in team-service's catalog ({@code webhook}, {@code a2a})
 * @param holder the lease holder the runtime's offers name, whichever replica holds them
 * @param inFlightMeter the gauge of jobs one replica holds
 * @param failuresMeter the counter of jobs the runtime failed, left unknown or disconnected
 * @param failuresDescription that counter's description
 * @param failureReasons every {@code reason} tag of that counter, registered from the start
 * @param housekeepingLoop the name of the loop that forgets records of ended jobs
 */
public record RuntimeProfile(
    String kind,
    String holder,
    String inFlightMeter,
    String failuresMeter,
    String failuresDescription,
    List<String> failureReasons,
    String housekeepingLoop) {

  public RuntimeProfile {
    failureReasons = List.copyOf(failureReasons);
  }

  /** The name of the loop that looks for the runtime's jobs besides the dispatch signal. */
  public String dispatchLoop() {
    return kind + "-dispatch";
  }
}
