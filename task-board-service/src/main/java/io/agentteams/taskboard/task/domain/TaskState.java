package io.agentteams.taskboard.task.domain;

import java.util.Locale;

/**
 * What was explicitly done to a task. An {@code OPEN} task's status is derived from its
 * dependencies; the others are statuses of their own.
 */
public enum TaskState {
  OPEN,
  IN_PROGRESS,
  COMPLETED,
  FAILED,
  CANCELLED;

  /** Whether nothing can happen to the task any more (besides deletion). */
  public boolean terminal() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TaskState fromWire(String wire) {
    return valueOf(wire.toUpperCase(Locale.ROOT));
  }
}
