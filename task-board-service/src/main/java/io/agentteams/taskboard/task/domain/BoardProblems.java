package io.agentteams.taskboard.task.domain;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Refusals that are about the board or the request rather than one existing task. */
public final class BoardProblems {

  private BoardProblems() {}

  public static DomainFailure membersOnly(String action) {
    return DomainFailure.forbidden("members-only", "only members of the team may " + action);
  }

  public static DomainFailure leadOnly(String action) {
    return DomainFailure.forbidden("lead-only", "only the team's lead may " + action);
  }

  /** A member token for another team, or for a name the roster does not hold. */
  public static DomainFailure notAMember(String member, UUID teamId) {
    return DomainFailure.forbidden(
        "not-a-member", member + " is not a member of team " + teamId, Map.of("member", member));
  }

  /** A caller that is neither a member nor the owner of the team (an agent worker). */
  public static DomainFailure notOnTheBoard() {
    return DomainFailure.forbidden(
        "not-a-member", "only the team's members and its owner use its task board");
  }

  public static DomainFailure unknownMember(String name) {
    return DomainFailure.invalid(
        "unknown-member", "'" + name + "' is not a member of the team", Map.of("member", name));
  }

  public static DomainFailure unknownDependency(TaskId task, boolean deleted) {
    return DomainFailure.invalid(
        "unknown-dependency",
        "dependency " + task + (deleted ? " was deleted" : " does not exist"),
        Map.of("dependency", task.value(), "deleted", deleted));
  }

  public static <K> DomainFailure cycle(List<K> cycle) {
    StringBuilder path = new StringBuilder();
    for (K node : cycle) {
      path.append(path.length() == 0 ? "" : " -> ").append(node);
    }
    return DomainFailure.invalid(
        "dependency-cycle",
        "the dependencies would form a cycle: " + path,
        Map.of("cycle", cycle.stream().map(BoardProblems::wire).toList()));
  }

  private static Object wire(Object node) {
    return node instanceof TaskId id ? id.value() : node.toString();
  }

  public static DomainFailure boardNotFound(UUID teamId) {
    return DomainFailure.notFound("board", teamId);
  }

  public static DomainFailure taskNotFound(Object id) {
    return DomainFailure.notFound("task", id);
  }

  /** A dependency id outside the ids a task can have. */
  public static DomainFailure noSuchDependency(long value) {
    return DomainFailure.invalid("unknown-dependency", "dependency " + value + " does not exist");
  }

  public static DomainFailure invalidPercent(int percent) {
    return DomainFailure.invalid(
        "invalid-percent",
        "percent must be between 0 and 100, got " + percent,
        Map.of("percent", percent));
  }

  public static DomainFailure invalidWriteScope(String raw, String why) {
    return DomainFailure.invalid(
        "invalid-write-scope", "write scope '" + raw + "' " + why, Map.of("write_scope", raw));
  }

  /** The caller changed the board's settings from a revision that is no longer current. */
  public static DomainFailure staleSettings(long current, long expected) {
    return DomainFailure.conflict(
        "stale-revision",
        "the board's settings are at revision " + current + ", not " + expected,
        Map.of("expected_revision", expected, "current_revision", current));
  }

  public static DomainFailure invalidClaimTimeout(Duration min, Duration max) {
    return DomainFailure.invalid(
        "invalid-claim-timeout",
        "the claim time-out must be between "
            + min.toSeconds()
            + " and "
            + max.toSeconds()
            + " seconds",
        Map.of("min_seconds", min.toSeconds(), "max_seconds", max.toSeconds()));
  }

  /** A status filter that names no status. */
  public static DomainFailure unknownStatus(String wire) {
    return DomainFailure.invalid("unknown-status", "no task status is called '" + wire + "'");
  }

  /** A listing cursor this service did not issue. */
  public static DomainFailure invalidCursor() {
    return DomainFailure.invalid("invalid-cursor", "the cursor is not one this service issued");
  }

  /** A listing cursor issued for another filter or another team's board. */
  public static DomainFailure cursorFilterMismatch() {
    return DomainFailure.invalid(
        "cursor-filter-mismatch",
        "this cursor belongs to a listing with another filter; list again without it");
  }

  /** A page size outside 1 to the maximum. */
  public static DomainFailure invalidLimit(int max, int actual) {
    return DomainFailure.invalid(
        "invalid-limit",
        "limit must be between 1 and " + max + ", got " + actual,
        Map.of("min", 1, "max", max, "actual", actual));
  }

  /** A page size that is not a whole number. */
  public static DomainFailure limitNotANumber(String raw) {
    return DomainFailure.invalid(
        "invalid-limit", "limit must be a whole number, got '" + raw + "'");
  }

  /** {@code include_deleted} other than true or false. */
  public static DomainFailure notABoolean(String parameter) {
    return DomainFailure.invalid(
        "invalid-parameter", parameter + " must be true or false", Map.of("parameter", parameter));
  }

  public static LimitExceededException tooManyTasks(int max, long actual) {
    return new LimitExceededException("task.max-tasks-per-team", "tasks", max, actual);
  }

  /** The board gave out every task id there is. */
  public static LimitExceededException outOfIds(long max, long next) {
    return new LimitExceededException("task.ids", "ids", max, next);
  }

  public static LimitExceededException tooManyDependencies(int max, int actual) {
    return new LimitExceededException("task.max-dependencies", "dependencies", max, actual);
  }

  public static LimitExceededException tooManyWriteScopes(int max, int actual) {
    return new LimitExceededException("task.max-write-scopes", "write scopes", max, actual);
  }
}
