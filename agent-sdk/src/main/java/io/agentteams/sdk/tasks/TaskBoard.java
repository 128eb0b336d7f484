package io.agentteams.sdk.tasks;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.problem.ConflictException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/v1/teams/{teamId}/tasks} and {@code plans}. Every mutation names the revision last
 * read; a stale one throws {@link ConflictException} carrying the current task ({@link
 * #current(ConflictException)}), so the caller can decide again without another read.
 */
public final class TaskBoard {

  private final HttpTransport http;

  public TaskBoard(HttpTransport http) {
    this.http = http;
  }

  /**
   * The whole board in id order, read a page at a time: it follows each page's {@code next_cursor}
   * until the last page, so no task is missed however large the board; a task created meanwhile
   * shows up (its id is larger than every task already read) and none shows twice.
   *
   * @param status only these statuses (comma-separated); null for all
   * @param owner only this member's tasks; null for all
   */
  public List<Task> list(UUID teamId, @Nullable String status, @Nullable String owner) {
    List<Task> tasks = new ArrayList<>();
    String cursor = null;
    do {
      TaskPage page = page(teamId, status, owner, false, null, cursor);
      tasks.addAll(page.items());
      cursor = page.nextCursor();
    } while (cursor != null);
    return tasks;
  }

  /** Every live task. */
  public List<Task> list(UUID teamId) {
    return list(teamId, null, null);
  }

  /**
   * One page of the board, in id order.
   *
   * @param status only these statuses (comma-separated); null for all
   * @param owner only this member's tasks; null for all
   * @param includeDeleted whether tombstones are listed too
   * @param limit tasks per page; null for the service's default
   * @param cursor the previous page's {@link TaskPage#nextCursor()}, with the same filter; null for
   *     the first page
   */
  public TaskPage page(
      UUID teamId,
      @Nullable String status,
      @Nullable String owner,
      boolean includeDeleted,
      @Nullable Integer limit,
      @Nullable String cursor) {
    return Objects.requireNonNull(
        http.call(
            "GET",
            ApiPath.of("/api/v1/teams/{}/tasks", teamId)
                .query("status", status)
                .query("owner", owner)
                .query("include_deleted", includeDeleted ? Boolean.TRUE : null)
                .query("limit", limit)
                .query("cursor", cursor),
            null,
            TaskPage.class));
  }

  /** One task. */
  public Task get(UUID teamId, long taskId) {
    return Objects.requireNonNull(
        http.call(
            "GET", ApiPath.of("/api/v1/teams/{}/tasks/{}", teamId, taskId), null, Task.class));
  }

  /** Creates a task. */
  public TaskOutcome create(UUID teamId, NewTask task) {
    return outcome("POST", ApiPath.of("/api/v1/teams/{}/tasks", teamId), task);
  }

  /** Edits a task (its owner or the lead). */
  public TaskOutcome patch(UUID teamId, long taskId, TaskPatch patch) {
    return outcome("PATCH", ApiPath.of("/api/v1/teams/{}/tasks/{}", teamId, taskId), patch);
  }

  /** Deletes a task, leaving a tombstone. */
  public TaskOutcome delete(UUID teamId, long taskId, long expectedRevision) {
    return outcome(
        "DELETE",
        ApiPath.of("/api/v1/teams/{}/tasks/{}", teamId, taskId)
            .query("expected_revision", expectedRevision),
        null);
  }

  /** Claims a ready task that has no owner. */
  public TaskOutcome claim(UUID teamId, long taskId, long expectedRevision) {
    return step(teamId, taskId, "claim", revision(expectedRevision));
  }

  /** Gives a claimed task back to the board. */
  public TaskOutcome release(UUID teamId, long taskId, long expectedRevision) {
    return step(teamId, taskId, "release", revision(expectedRevision));
  }

  /** Gives the task to another member (the lead) or takes it over. */
  public TaskOutcome reassign(UUID teamId, long taskId, long expectedRevision, String member) {
    Map<String, Object> body = revision(expectedRevision);
    body.put("member", member);
    return step(teamId, taskId, "reassign", body);
  }

  /**
   * The claimant still works on it, optionally with progress.
   *
   * @param phase null for no progress report
   * @param percent 0 to 100; null for no progress report
   */
  public TaskOutcome heartbeat(
      UUID teamId,
      long taskId,
      long expectedRevision,
      @Nullable String phase,
      @Nullable Integer percent) {
    Map<String, Object> body = revision(expectedRevision);
    putIfPresent(body, "phase", phase);
    putIfPresent(body, "percent", percent);
    return step(teamId, taskId, "heartbeat", body);
  }

  /** Completes a claimed task with its result; dependents may become ready. */
  public TaskOutcome complete(
      UUID teamId, long taskId, long expectedRevision, @Nullable String result) {
    Map<String, Object> body = revision(expectedRevision);
    putIfPresent(body, "result", result);
    return step(teamId, taskId, "complete", body);
  }

  /** Fails a claimed task with the error; dependents become blocked. */
  public TaskOutcome fail(UUID teamId, long taskId, long expectedRevision, @Nullable String error) {
    Map<String, Object> body = revision(expectedRevision);
    putIfPresent(body, "error", error);
    return step(teamId, taskId, "fail", body);
  }

  /** The board's settings. */
  public BoardSettings settings(UUID teamId) {
    return Objects.requireNonNull(
        http.call(
            "GET",
            ApiPath.of("/api/v1/teams/{}/tasks/settings", teamId),
            null,
            BoardSettings.class));
  }

  /**
   * Sets the team's claim time-out: a claim whose heartbeats stop for longer goes back to ready.
   *
   * @param claimTimeoutSeconds null for the default
   */
  public BoardSettings changeSettings(
      UUID teamId, long expectedRevision, @Nullable Long claimTimeoutSeconds) {
    Map<String, Object> body = revision(expectedRevision);
    body.put("claim_timeout_seconds", claimTimeoutSeconds);
    return Objects.requireNonNull(
        http.call(
            "PUT",
            ApiPath.of("/api/v1/teams/{}/tasks/settings", teamId),
            body,
            BoardSettings.class));
  }

  /**
   * Imports a plan atomically: keys and dependencies normalised, the graph checked.
   *
   * @param requireApproval hold its tasks until the owner approves
   */
  public ImportedPlan importPlan(UUID teamId, List<PlannedTask> tasks, boolean requireApproval) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("tasks", tasks);
    body.put("require_approval", requireApproval);
    return Objects.requireNonNull(
        http.call("POST", ApiPath.of("/api/v1/teams/{}/plans", teamId), body, ImportedPlan.class));
  }

  /** A plan. */
  public Plan plan(UUID teamId, UUID planId) {
    return Objects.requireNonNull(
        http.call(
            "GET", ApiPath.of("/api/v1/teams/{}/plans/{}", teamId, planId), null, Plan.class));
  }

  /** Releases a held plan's tasks (the owner). */
  public PlanApproval approvePlan(UUID teamId, UUID planId, long expectedRevision) {
    return Objects.requireNonNull(
        http.call(
            "POST",
            ApiPath.of("/api/v1/teams/{}/plans/{}/approve", teamId, planId),
            revision(expectedRevision),
            PlanApproval.class));
  }

  /** The task as it is now, when a conflict carries it. */
  public Optional<Task> current(ConflictException conflict) {
    JsonMapper json = http.json();
    return conflict.current("current").map(node -> json.treeToValue(node, Task.class));
  }

  private TaskOutcome step(UUID teamId, long taskId, String action, Map<String, Object> body) {
    return outcome("POST", ApiPath.of("/api/v1/teams/{}/tasks/{}/" + action, teamId, taskId), body);
  }

  private TaskOutcome outcome(String method, ApiPath path, @Nullable Object body) {
    return Objects.requireNonNull(http.call(method, path, body, TaskOutcome.class));
  }

  private static Map<String, Object> revision(long expectedRevision) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("expected_revision", expectedRevision);
    return body;
  }

  private static void putIfPresent(Map<String, Object> body, String name, @Nullable Object value) {
    if (value != null) {
      body.put(name, value);
    }
  }
}
