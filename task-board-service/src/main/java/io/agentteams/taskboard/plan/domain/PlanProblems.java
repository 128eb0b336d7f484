package io.agentteams.taskboard.plan.domain;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.util.Map;
import java.util.UUID;

/** The named refusals of plans: importing them and approving them. */
public final class PlanProblems {

  private PlanProblems() {}

  public static LimitExceededException tooManyTasks(int max, int actual) {
    return new LimitExceededException("plan.max-tasks", "tasks", max, actual);
  }

  public static DomainFailure emptyPlan() {
    return DomainFailure.invalid("empty-plan", "a plan needs at least one task");
  }

  public static DomainFailure duplicateKey(String key) {
    return DomainFailure.invalid("duplicate-plan-key", "plan key '" + key + "' is used twice");
  }

  /**
   * A plan task depends on a key that no task of the plan has.
   *
   * @param why how the plan lacks it, for the detail
   */
  public static DomainFailure unknownDependency(String task, String dependency, String why) {
    return DomainFailure.invalid(
        "unknown-plan-dependency",
        "plan task '" + task + "' depends on '" + dependency + "', " + why,
        Map.of("task", task, "dependency", dependency));
  }

  public static DomainFailure ownerOnly() {
    return DomainFailure.forbidden("owner-only", "only the team's owner approves plans");
  }

  /** The approver read the plan at a revision that is no longer current. */
  public static DomainFailure staleRevision(UUID planId, long current, long expected) {
    return DomainFailure.conflict(
        "stale-revision",
        "plan " + planId + " is at revision " + current + ", not " + expected,
        Map.of("expected_revision", expected, "current_revision", current));
  }

  public static DomainFailure notAwaitingApproval(UUID planId, PlanStatus status) {
    return DomainFailure.conflict(
        "plan-not-awaiting-approval",
        "plan " + planId + " is " + status.wire() + " and needs no approval",
        Map.of("plan_status", status.wire()));
  }

  /** A team run's plan is approved or rejected through its run, never on the board. */
  public static DomainFailure ofRun(UUID planId) {
    return DomainFailure.conflict(
        "plan-of-a-run",
        "plan "
            + planId
            + " is team run "
            + planId
            + "'s plan: approve or reject it through the run"
            + " (POST /api/v1/teams/{teamId}/runs/"
            + planId
            + "/approve or /reject)",
        Map.of("run_id", planId.toString()));
  }

  /** A team run's plan for a team this board has not learned of (or that was deleted). */
  public static DomainFailure runTeamNotFound(UUID teamId) {
    return DomainFailure.notFound("team", teamId);
  }

  public static DomainFailure planNotFound(UUID planId) {
    return DomainFailure.notFound("plan", planId);
  }
}
