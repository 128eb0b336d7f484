package io.agentteams.scheduler.run.domain;

import java.util.Arrays;

/** Where a run is in its life. */
public enum RunState {
  /** Its planner job is asked for a plan. */
  PLANNING("planning"),
  /** The plan waits for the owner's approval. */
  AWAITING_APPROVAL("awaiting_approval"),
  /** Rounds of ready tasks are dispatched to their members. */
  RUNNING("running"),
  /** The synthesiser job composes the run's result. */
  SYNTHESISING("synthesising"),
  COMPLETED("completed"),
  FAILED("failed"),
  CANCELLED("cancelled");

  private final String wire;

  RunState(String wire) {
    this.wire = wire;
  }

  /** The name on the wire and in the database. */
  public String wire() {
    return wire;
  }

  public static RunState fromWire(String wire) {
    return Arrays.stream(values())
        .filter(state -> state.wire.equals(wire))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown run state " + wire));
  }

  /** Whether the run is over; a finished run never changes again. */
  public boolean finished() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }
}
