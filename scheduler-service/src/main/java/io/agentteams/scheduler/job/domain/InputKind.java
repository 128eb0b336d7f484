package io.agentteams.scheduler.job.domain;

import java.util.Arrays;

/** How an agent asked for input, which decides how the owner answers. */
public enum InputKind {
  /** A question in text, answered with text. */
  CLARIFICATION("clarification"),
  /** A structured interrupt, answered with JSON. */
  INTERRUPT("interrupt");

  private final String wire;

  InputKind(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  public static InputKind fromWire(String wire) {
    return Arrays.stream(values())
        .filter(kind -> kind.wire.equals(wire))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown input kind " + wire));
  }
}
