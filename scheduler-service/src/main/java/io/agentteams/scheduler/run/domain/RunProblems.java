package io.agentteams.scheduler.run.domain;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.problem.DomainFailure;
import java.util.Map;
import java.util.UUID;

/** The refusals of team runs, each named once with its stable code and parameters. */
public final class RunProblems {

  private RunProblems() {}

  /** No such run, or not the caller's. */
  public static DomainFailure notFound(UUID runId) {
    return DomainFailure.notFound("run", runId);
  }

  /** The run is not in the state the request needs. */
  public static DomainFailure wrongState(UUID runId, RunState actual, RunState expected) {
    return DomainFailure.conflict(
        "run-state",
        "run " + runId + " is " + actual.wire() + ", not " + expected.wire(),
        Map.of("state", actual.wire(), "expected", expected.wire()));
  }

  /** The run has ended and changes no more. */
  public static DomainFailure finished(UUID runId, RunState actual) {
    return DomainFailure.conflict(
        "run-finished",
        "run " + runId + " has ended (" + actual.wire() + ")",
        Map.of("state", actual.wire()));
  }

  /** A member the run names is not on the team. */
  public static DomainFailure unknownMember(String option, String member) {
    return DomainFailure.invalid(
        "unknown-member",
        option + " '" + member + "' is not a member of the team",
        Map.of("option", option, "member", member));
  }

  /** A run with no planner named, on a team that has no lead to plan it. */
  public static DomainFailure noLead() {
    return DomainFailure.invalid(
        "no-lead",
        "This team has no lead to plan the run: name a planner among its members",
        Map.of("option", "planner"));
  }

  /** An option outside its bounds. */
  public static DomainFailure outOfRange(String option, int value, int min, int max) {
    return DomainFailure.invalid(
        "run-option",
        option + " must be between " + min + " and " + max + ", not " + value,
        Map.of("option", option, "value", value, "min", min, "max", max));
  }

  /** An unreadable-plan policy that is neither {@code fail} nor {@code fallback}. */
  public static DomainFailure unknownPolicy(String value) {
    return DomainFailure.invalid(
        "run-option",
        "on_unreadable_plan must be 'fail' or 'fallback', not '" + value + "'",
        Map.of("option", "on_unreadable_plan", "value", value));
  }

  /** The rejection needs a reason. */
  public static DomainFailure reasonRequired() {
    return DomainFailure.invalid("reason-required", "say why the plan is rejected");
  }

  /** The team runs too many runs at once. */
  public static DomainFailure tooManyActive(int active, int max) {
    return new DomainFailure(
        DomainFailure.Kind.LIMIT_EXCEEDED,
        "team-runs",
        "the team has " + active + " unfinished runs; at most " + max + " at once",
        Map.of("limit", max, "actual", active));
  }

  /** The idempotency key was used for another run. */
  public static DomainFailure keyReused(String key) {
    return DomainFailure.conflict(
        "idempotency-key-reused",
        "idempotency key '" + key + "' was used for a different run",
        Map.of("idempotency_key", key));
  }

  /** The team accepts no new runs in its status. */
  public static DomainFailure teamNotActive(UUID teamId, TeamStatus status) {
    return DomainFailure.conflict(
        "team-not-active",
        "team " + teamId + " is " + status.wire() + " and accepts no runs",
        Map.of("team_status", status.wire()));
  }

  /** Text holding U+0000, which the database cannot store. */
  public static DomainFailure nulCharacter(String field) {
    return DomainFailure.invalid(
        "nul-character", field + " must not contain the character U+0000", Map.of("field", field));
  }
}
