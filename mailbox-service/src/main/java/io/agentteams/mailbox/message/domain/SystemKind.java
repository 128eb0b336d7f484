package io.agentteams.mailbox.message.domain;

import java.util.Arrays;

/** What a system message reports. */
public enum SystemKind {
  TASK_ASSIGNED("task.assigned"),
  TASK_RESULT("task.result"),
  TASK_ERROR("task.error"),
  RUN_COMPLETE("run.complete"),
  /** A budget stopped the run's dispatch: the tasks left are blocked with the budget named. */
  RUN_BUDGET_STOPPED("run.budget_stopped");

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
   * @throws io.agentteams.platform.problem.DomainFailure when no kind has that name
   */
  public static SystemKind fromWire(String value) {
    return Arrays.stream(values())
        .filter(kind -> kind.wire.equals(value))
        .findFirst()
        .orElseThrow(() -> MessageProblems.unknownSystemKind(value));
  }
}
