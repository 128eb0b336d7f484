package io.agentteams.taskboard.plan.domain;

import java.util.Locale;

/** Where a plan stands. */
public enum PlanStatus {
  /** Imported without a hold: its tasks were claimable at once. */
  IMPORTED,
  /** Its tasks wait for the team owner's approval. */
  AWAITING_APPROVAL,
  /** The owner approved it. */
  APPROVED;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static PlanStatus fromWire(String wire) {
    return valueOf(wire.toUpperCase(Locale.ROOT));
  }
}
