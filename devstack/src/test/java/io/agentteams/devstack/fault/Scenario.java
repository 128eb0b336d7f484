package io.agentteams.devstack.fault;

import io.agentteams.devstack.ServiceStack.Service;
import java.nio.file.Path;
import java.util.Map;

/** A workload run against the stack while faults are injected, checked when it is done. */
interface Scenario {

  /** Its name in the table. */
  String name();

  /** How many replicas of each service it needs (absent: 1). */
  default Map<Service, Integer> replicas() {
    return Map.of();
  }

  /** Properties every service of its stack needs. */
  default Map<String, Object> properties() {
    return Map.of();
  }

  /**
   * Runs the workload, injects the faults, waits for the stack to recover and the workload to
   * finish, writes the record under {@code records}, and checks it.
   */
  Row run(FaultStack stack, Path records);
}
