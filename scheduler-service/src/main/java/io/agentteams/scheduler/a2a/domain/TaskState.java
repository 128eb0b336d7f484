package io.agentteams.scheduler.a2a.domain;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The states of an A2A 1.0 task, by their JSON names ({@code TASK_STATE_WORKING}). */
public enum TaskState {
  SUBMITTED,
  WORKING,
  INPUT_REQUIRED,
  AUTH_REQUIRED,
  COMPLETED,
  FAILED,
  CANCELED,
  REJECTED,
  /** Absent, unspecified, or a name this runtime does not know: the task is taken as working. */
  UNSPECIFIED;

  /** The state a JSON name denotes; the lowercase 0.3 names are read too. */
  public static TaskState fromWire(@Nullable String wire) {
    if (wire == null || wire.isBlank()) {
      return UNSPECIFIED;
    }
    String name = wire.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    if (name.startsWith("TASK_STATE_")) {
      name = name.substring("TASK_STATE_".length());
    }
    if (name.equals("CANCELLED")) {
      name = "CANCELED";
    }
    for (TaskState state : values()) {
      if (state.name().equals(name)) {
        return state;
      }
    }
    return UNSPECIFIED;
  }

  /** The JSON name. */
  public String wire() {
    return "TASK_STATE_" + name();
  }

  /** Whether the task is over: it never changes state again. */
  public boolean terminal() {
    return this == COMPLETED || this == FAILED || this == CANCELED || this == REJECTED;
  }

  /** Whether the task waits for the client (an answer, or credentials). */
  public boolean interrupted() {
    return this == INPUT_REQUIRED || this == AUTH_REQUIRED;
  }
}
