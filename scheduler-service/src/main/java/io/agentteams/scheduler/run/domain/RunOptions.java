package io.agentteams.scheduler.run.domain;

import java.util.Objects;

/**
 * How a run is run, fixed when it starts.
 *
 * @param planner the member asked for the plan
 * @param synthesiser the member asked to compose the result
 * @param maxRounds rounds of dispatch before the remaining tasks are blocked
 * @param concurrency tasks dispatched at once in a round (their jobs still wait for the global
 *     admission slots like any other work)
 * @param continueOnMemberError whether a failed task is recorded and the run goes on, rather than
 *     failing the run
 * @param requirePlanApproval whether the plan waits for the owner's approval before dispatch
 * @param onUnreadablePlan what happens when no plan can be read from the planner's answer
 */
public record RunOptions(
    String planner,
    String synthesiser,
    int maxRounds,
    int concurrency,
    boolean continueOnMemberError,
    boolean requirePlanApproval,
    UnreadablePlan onUnreadablePlan) {

  /** What a run does when no plan can be read from the planner's answer. */
  public enum UnreadablePlan {
    /** The run fails, saying why. */
    FAIL("fail"),
    /** One task per member, each asked to work on the objective. */
    FALLBACK("fallback");

    private final String wire;

    UnreadablePlan(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }

    public static UnreadablePlan fromWire(String wire) {
      for (UnreadablePlan value : values()) {
        if (value.wire.equals(wire)) {
          return value;
        }
      }
      throw new IllegalArgumentException("unknown unreadable-plan policy " + wire);
    }
  }

  public RunOptions {
    Objects.requireNonNull(planner, "planner");
    Objects.requireNonNull(synthesiser, "synthesiser");
    Objects.requireNonNull(onUnreadablePlan, "on unreadable plan");
    if (maxRounds < 1) {
      throw new IllegalArgumentException("max rounds must be at least 1");
    }
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1");
    }
  }
}
