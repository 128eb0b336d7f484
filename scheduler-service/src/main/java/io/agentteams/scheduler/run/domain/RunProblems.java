package io.agentteams.scheduler.run.domain;

import io.agentteams.platform.problem.ProblemException;
import java.util.Map;
import java.util.UUID;

/** The refusals of team runs, each named once with its stable code and parameters. */
public final class RunProblems {

  private RunProblems() {}

  /** No such run, or not the caller's. */
  public static ProblemException notFound(UUID runId) {
    return ProblemException.notFound("run", runId);
  }

  /** The run is not in the state the request needs. */
  public static ProblemException wrongState(UUID runId, RunState actual, RunState expected) {
    return new ProblemException(
        ProblemException.Kind.CONFLICT,
        "run-state",
        "run " + runId + " is " + actual.wire() + ", not " + expected.wire(),
        Map.of("state", actual.wire(), "expected", expected.wire()));
  }

  /** The run has ended and changes no more. */
  public static ProblemException finished(UUID runId, RunState actual) {
    return new ProblemException(
        ProblemException.Kind.CONFLICT,
        "run-finished",
        "run " + runId + " has ended (" + actual.wire() + ")",
        Map.of("state", actual.wire()));
  }

  /** A member the run names is not on the team. */
  public static ProblemException unknownMember(String option, String member) {
    return new ProblemException(
        ProblemException.Kind.INVALID,
        "unknown-member",
        option + " '" + member + "' is not a member of the team",
        Map.of("option", option, "member", member));
  }

  /** An option outside its bounds. */
  public static ProblemException outOfRange(String option, int value, int min, int max) {
    return new ProblemException(
        ProblemException.Kind.INVALID,
        "run-option",
        option + " must be between " + min + " and " + max + ", not " + value,
        Map.of("option", option, "value", value, "min", min, "max", max));
  }

  /** An unreadable-plan policy that is neither {@code fail} nor {@code fallback}. */
  public static ProblemException unknownPolicy(String value) {
    return new ProblemException(
        ProblemException.Kind.INVALID,
        "run-option",
        "on_unreadable_plan must be 'fail' or 'fallback', not '" + value + "'",
        Map.of("option", "on_unreadable_plan", "value", value));
  }

  /** The rejection needs a reason. */
  public static ProblemException reasonRequired() {
    return ProblemException.invalid("reason-required", "say why the plan is rejected");
  }

  /** The team runs too many runs at once. */
  public static ProblemException tooManyActive(int active, int max) {
    return new ProblemException(
        ProblemException.Kind.LIMIT_EXCEEDED,
        "team-runs",
        "the team has " + active + " unfinished runs; at most " + max + " at once",
        Map.of("limit", max, "actual", active));
  }

  /** The idempotency key was used for another run. */
  public static ProblemException keyReused(String key) {
    return new ProblemException(
        ProblemException.Kind.CONFLICT,
        "idempotency-key-reused",
        "idempotency key '" + key + "' was used for a different run",
        Map.of("idempotency_key", key));
  }
}
