package io.agentteams.taskboard.task.domain;

import java.util.Locale;

/** A task's status as the board shows it. */
public enum TaskStatus {
  /** Imported with a plan that waits for the owner's approval; not claimable. */
  AWAITING_APPROVAL,
  /** Open, and every dependency is completed: any member may claim it. */
  READY,
  /** Open, waiting for dependencies that are not finished. */
  PENDING,
  /** Open, but a dependency is missing, failed, cancelled or itself blocked. */
  BLOCKED,
  IN_PROGRESS,
  COMPLETED,
  FAILED,
  CANCELLED,
  /** A tombstone. */
  DELETED;

  /** Whether a task with this status still counts as active work (for write-scope overlaps). */
  public boolean active() {
    return switch (this) {
      case AWAITING_APPROVAL, READY, PENDING, BLOCKED, IN_PROGRESS -> true;
      default -> false;
    };
  }

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TaskStatus fromWire(String wire) {
    return valueOf(wire.toUpperCase(Locale.ROOT));
  }
}
