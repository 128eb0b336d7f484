package io.agentteams.scheduler.run.domain;

import java.util.Arrays;

/** Where one task of a run's plan is. */
public enum TaskState {
  /** Not dispatched yet. */
  PENDING("pending"),
  /** Its job was dispatched in the current round. */
  RUNNING("running"),
  COMPLETED("completed"),
  FAILED("failed"),
  /** Will not run: a dependency failed, the rounds ran out, or its dependencies cannot resolve. */
  BLOCKED("blocked"),
  /** The run was cancelled before it finished. */
  CANCELLED("cancelled");

  private final String wire;

  TaskState(String wire) {
    this.wire = wire;
  }

  /** The name on the wire and in the database. */
  public String wire() {
    return wire;
  }

  public static TaskState fromWire(String wire) {
    return Arrays.stream(values())
        .filter(state -> state.wire.equals(wire))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown task state " + wire));
  }

  /** Whether the task will not change any more within its run. */
  public boolean settled() {
    return this != PENDING && this != RUNNING;
  }
}
