package io.agentteams.taskboard.task.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What happened on a board, recorded by the aggregate in the order it happened. */
public sealed interface BoardEvent {

  /** What caused a consequential status change: the kind of change and the task it happened to. */
  record Cause(String what, @Nullable TaskId task) {}

  record Created(Task task, String by, List<WriteScopes.Overlap> warnings) implements BoardEvent {}

  record Updated(Task task, String by, List<String> changed, List<WriteScopes.Overlap> warnings)
      implements BoardEvent {}

  /**
   * A claim. It carries no write-scope warnings: claiming keeps a task active, so every overlap it
   * has was already reported when the later of the two tasks was created or edited.
   */
  record Claimed(Task task) implements BoardEvent {}

  record Progressed(Task task) implements BoardEvent {}

  record Released(Task task, String previousOwner, String by) implements BoardEvent {}

  record Reassigned(Task task, @Nullable String previousOwner, String by) implements BoardEvent {}

  record Completed(Task task, String by, List<TaskId> nowReady) implements BoardEvent {}

  record Failed(Task task, String by, List<TaskId> nowBlocked) implements BoardEvent {}

  record Cancelled(Task task, String by, List<TaskId> nowBlocked) implements BoardEvent {}

  record Deleted(Task task, String by, List<TaskId> nowBlocked) implements BoardEvent {}

  record ClaimExpired(
      Task task, String member, Instant lastHeartbeat, Duration timeout, List<TaskId> nowBlocked)
      implements BoardEvent {}

  record BecameReady(Task task, Cause cause) implements BoardEvent {}

  record BecamePending(Task task, Cause cause) implements BoardEvent {}

  record Blocked(Task task, Cause cause) implements BoardEvent {}

  record SettingsChanged(
      @Nullable Duration claimTimeout, Duration effectiveClaimTimeout, String by, long revision)
      implements BoardEvent {}
}
