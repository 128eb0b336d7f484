package io.agentteams.taskboard.task.domain;

import org.jspecify.annotations.Nullable;

/** A task's status with the reason when it is blocked. */
public record Derived(TaskStatus status, @Nullable BlockedReason reason) {

  public Derived {
    if ((status == TaskStatus.BLOCKED) != (reason != null)) {
      throw new IllegalArgumentException("a reason goes with blocked, and only with blocked");
    }
  }

  public static Derived of(TaskStatus status) {
    return new Derived(status, null);
  }

  public static Derived blocked(BlockedReason.Kind kind, TaskId dependency) {
    return new Derived(TaskStatus.BLOCKED, new BlockedReason(kind, dependency));
  }
}
