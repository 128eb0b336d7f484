package io.agentteams.scheduler.job.domain;

import java.util.Arrays;

/** Why a job exists. */
public enum JobKind {
  /** The owner asked a member. */
  REQUEST("request"),
  /** A member asked another member ({@code send_member}). */
  HANDOFF("handoff"),
  /** A finished hand-off's answer, returned to the member that asked for it. */
  RECEIPT("receipt");

  private final String wire;

  JobKind(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  public static JobKind fromWire(String wire) {
    return Arrays.stream(values())
        .filter(kind -> kind.wire.equals(wire))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown job kind " + wire));
  }

  /** Requests and hand-offs count against the chain and team request limits; receipts do not. */
  public boolean isRequest() {
    return this != RECEIPT;
  }
}
