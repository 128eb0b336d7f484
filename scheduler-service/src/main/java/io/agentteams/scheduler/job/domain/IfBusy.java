package io.agentteams.scheduler.job.domain;

import org.jspecify.annotations.Nullable;

/**
 * What a request does when its member's conversation is busy with an unfinished job (what LangGraph
 * calls double-texting).
 */
public enum IfBusy {
  /** Queue behind the job (the default): the conversation runs its jobs one after another. */
  ENQUEUE("enqueue"),
  /** Refuse the request, naming the job the conversation is busy with. */
  REJECT("reject"),
  /**
   * Interrupt the job whose turn is under way in the conversation, then run this one next (only the
   * team's lead or its owner may ask this). A conversation whose head has no turn under way
   * (queued, waiting for a worker) is not interrupted: the request queues behind it.
   */
  INTERRUPT("interrupt");

  private final String wire;

  IfBusy(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  /** The value a request names; absent is {@link #ENQUEUE}. */
  public static IfBusy fromWire(@Nullable String wire) {
    if (wire == null) {
      return ENQUEUE;
    }
    for (IfBusy value : values()) {
      if (value.wire.equals(wire)) {
        return value;
      }
    }
    throw JobProblems.unknownIfBusy(wire);
  }
}
