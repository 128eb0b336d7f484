package io.agentteams.taskboard.task.domain;

import io.agentteams.platform.problem.DomainFailure;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A refusal about one task that carries the task as it is now, so the caller can re-read and decide
 * again without another request (a stale revision answers with the current task).
 */
public final class TaskProblem extends DomainFailure {

  private final Task current;

  private TaskProblem(
      Kind kind, String code, String detail, Map<String, Object> properties, Task current) {
    super(kind, code, detail, properties);
    this.current = current;
  }

  /** The task as it is now. */
  public Task current() {
    return current;
  }

  /** The caller's expected revision is not the task's: someone changed it since they read it. */
  public static TaskProblem staleRevision(Task current, long expected) {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("expected_revision", expected);
    properties.put("current_revision", current.revision());
    return new TaskProblem(
        Kind.CONFLICT,
        "stale-revision",
        "task " + current.id() + " is at revision " + current.revision() + ", not " + expected,
        properties,
        current);
  }

  /** The task is a tombstone; nothing changes it any more. */
  public static TaskProblem deleted(Task current) {
    return new TaskProblem(
        Kind.CONFLICT,
        "task-deleted",
        "task " + current.id() + " was deleted",
        Map.of("task_id", current.id().value()),
        current);
  }

  /** The task is not in a state that allows this transition. */
  public static TaskProblem invalidTransition(Task current, String action, String why) {
    return new TaskProblem(
        Kind.CONFLICT,
        "invalid-transition",
        "cannot " + action + " task " + current.id() + ": " + why,
        Map.of("task_id", current.id().value(), "task_status", current.status().wire()),
        current);
  }

  /** A claim of a task that is not ready. */
  public static TaskProblem notReady(Task current) {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("task_id", current.id().value());
    properties.put("task_status", current.status().wire());
    String why = "it is " + current.status().wire().replace('_', ' ');
    if (current.blockedReason() != null) {
      properties.put("blocked_reason", current.blockedReason().kind().wire());
      properties.put("blocked_by", current.blockedReason().dependency().value());
      why += ": " + current.blockedReason().describe();
    }
    return new TaskProblem(
        Kind.CONFLICT,
        "task-not-ready",
        "task " + current.id() + " cannot be claimed, " + why,
        properties,
        current);
  }

  /** A claim of a ready task that another member owns. */
  public static TaskProblem ownedByAnother(Task current) {
    return new TaskProblem(
        Kind.CONFLICT,
        "task-owned",
        "task " + current.id() + " belongs to " + current.owner(),
        Map.of("task_id", current.id().value(), "owner", String.valueOf(current.owner())),
        current);
  }

  /** Only the task's owner or the team's lead may do this, and the actor is neither. */
  public static TaskProblem notOwner(Task current, String actor, String action) {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("task_id", current.id().value());
    putOwner(properties, current);
    return new TaskProblem(
        Kind.FORBIDDEN,
        "not-task-owner",
        "only the owner of task "
            + current.id()
            + " ("
            + (current.owner() == null ? "nobody" : current.owner())
            + ") or the lead may "
            + action
            + " it, not "
            + actor,
        properties,
        current);
  }

  /** Only the claimant of an in-progress task may do this. */
  public static TaskProblem notClaimant(Task current, String actor, String action) {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("task_id", current.id().value());
    putOwner(properties, current);
    properties.put("task_status", current.status().wire());
    return new TaskProblem(
        Kind.FORBIDDEN,
        "not-task-owner",
        actor
            + " does not hold a claim on task "
            + current.id()
            + " (status "
            + current.status().wire()
            + ", owner "
            + (current.owner() == null ? "nobody" : current.owner())
            + ") and may not "
            + action
            + " it",
        properties,
        current);
  }

  /** An owner is named only when the task has one. */
  private static void putOwner(Map<String, Object> properties, Task current) {
    if (current.owner() != null) {
      properties.put("owner", current.owner());
    }
  }
}
