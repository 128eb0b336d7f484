package io.agentteams.taskboard.task.web;

import io.agentteams.platform.web.WebProblems;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Request bodies of the task API. */
public final class TaskRequests {

  private TaskRequests() {}

  /** The revision a change expects; every change must carry one. */
  static long expected(@Nullable Long expectedRevision) {
    if (expectedRevision == null) {
      throw WebProblems.invalid(
          "missing-expected-revision", "expected_revision is required for every change");
    }
    return expectedRevision;
  }

  static <T> List<T> orEmpty(@Nullable List<T> list) {
    return list == null ? List.of() : list;
  }

  /** Creates a task. */
  public record Create(
      @Nullable String title,
      @Nullable String description,
      @Nullable List<Long> dependencies,
      @Nullable List<String> writeScopes,
      @Nullable String owner) {}

  /** Edits a task, or cancels it with {@code status: cancelled}. */
  public record Patch(
      @Nullable Long expectedRevision,
      @Nullable String title,
      @Nullable String description,
      @Nullable List<Long> dependencies,
      @Nullable List<String> writeScopes,
      @Nullable String status) {}

  /** Claim and release carry nothing but the revision. */
  public record Revision(@Nullable Long expectedRevision) {}

  /** Gives the task to a member. */
  public record Reassign(@Nullable Long expectedRevision, @Nullable String member) {}

  /** The claimant is alive, optionally with progress. */
  public record Heartbeat(
      @Nullable Long expectedRevision, @Nullable String phase, @Nullable Integer percent) {}

  /** Completes a claimed task. */
  public record Complete(@Nullable Long expectedRevision, @Nullable String result) {}

  /** Fails a claimed task. */
  public record Fail(@Nullable Long expectedRevision, @Nullable String error) {}

  /** Sets the team's claim time-out; null returns to the configured default. */
  public record Settings(@Nullable Long expectedRevision, @Nullable Long claimTimeoutSeconds) {}
}
