package io.agentteams.scheduler.job.domain;

import java.util.Arrays;

/** Where a job is in its life. */
public enum JobState {
  /** Waiting for admission: new, or answered after a question. */
  QUEUED("queued"),
  /** Holds a slot and waits for (or has been offered to) its agent's runtime. */
  ADMITTED("admitted"),
  /** Its runtime reported it started. */
  RUNNING("running"),
  /** Stopped with a question; released its slot but still holds its conversation. */
  WAITING_INPUT("waiting_input"),
  /**
   * Admitted, but no runtime took its offer in time: gave its slot back and waits, still holding
   * its conversation and its queue position, until a worker of its agent can take it.
   */
  WAITING_WORKER("waiting_worker"),
  /** Its lease or admission outcome cannot be known yet; holds its slot until reconciled. */
  UNKNOWN("unknown"),
  COMPLETED("completed"),
  FAILED("failed"),
  CANCELLED("cancelled"),
  /**
   * Stopped mid-turn by the team's lead (or its owner): the runtime was asked to stop, the slot and
   * the conversation are free for the next job, and nothing of the member's conversation or inbox
   * is discarded.
   */
  INTERRUPTED("interrupted");

  private final String wire;

  JobState(String wire) {
    this.wire = wire;
  }

  /** The name on the wire and in the database. */
  public String wire() {
    return wire;
  }

  public static JobState fromWire(String wire) {
    return Arrays.stream(values())
        .filter(state -> state.wire.equals(wire))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown job state " + wire));
  }

  /** Whether a job in this state occupies one of the global admission slots. */
  public boolean holdsSlot() {
    return this == ADMITTED || this == RUNNING || this == UNKNOWN;
  }

  /** Whether the job is over; a finished job never changes state again. */
  public boolean finished() {
    return this == COMPLETED || this == FAILED || this == CANCELLED || this == INTERRUPTED;
  }

  /**
   * Whether a job in this state has a turn under way that an interrupt can stop: it holds a slot
   * (admitted, running, or with its outcome unknown) or it paused its turn with a question.
   */
  public boolean interruptible() {
    return holdsSlot() || this == WAITING_INPUT;
  }
}
