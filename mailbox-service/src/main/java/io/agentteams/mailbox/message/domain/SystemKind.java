package io.agentteams.mailbox.message.domain;

import io.agentteams.platform.problem.ProblemException;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/** What a system message reports. */
public enum SystemKind {
  TASK_ASSIGNED("task.assigned"),
  TASK_RESULT("task.result"),
  TASK_ERROR("task.error"),
  RUN_COMPLETE("run.complete");

  private final String wire;

  SystemKind(String wire) {
    this.wire = wire;
  }

  /** The dotted name used on the wire and in the database. */
  public String wire() {
    return wire;
  }

  /**
   * The kind with that wire name.
   *
   * @throws ProblemException when no kind has that name
   */
  public static SystemKind fromWire(String value) {
    return Arrays.stream(values())
        .filter(kind -> kind.wire.equals(value))
        .findFirst()
        .orElseThrow(
            () ->
                new ProblemException(
                    ProblemException.Kind.INVALID,
                    "unknown-system-kind",
                    "system_kind must be one of "
                        + Arrays.stream(values())
                            .map(SystemKind::wire)
                            .collect(Collectors.joining(", ")),
                    Map.of("system_kind", value)));
  }
}
