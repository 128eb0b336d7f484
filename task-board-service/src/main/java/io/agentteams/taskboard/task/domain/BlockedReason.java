package io.agentteams.taskboard.task.domain;

import java.util.Locale;

/**
 * Why an open task is blocked, naming the dependency responsible.
 *
 * @param kind what is wrong with the dependency
 * @param dependency the first blocking dependency in id order
 */
public record BlockedReason(Kind kind, TaskId dependency) {

  /** What is wrong with a dependency. */
  public enum Kind {
    DEPENDENCY_MISSING("was deleted"),
    DEPENDENCY_FAILED("failed"),
    DEPENDENCY_CANCELLED("was cancelled"),
    DEPENDENCY_BLOCKED("is blocked");

    private final String phrase;

    Kind(String phrase) {
      this.phrase = phrase;
    }

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Kind fromWire(String wire) {
      return valueOf(wire.toUpperCase(Locale.ROOT));
    }
  }

  /** A sentence for people, e.g. "dependency 3 failed". */
  public String describe() {
    return "dependency " + dependency + " " + kind.phrase;
  }
}
