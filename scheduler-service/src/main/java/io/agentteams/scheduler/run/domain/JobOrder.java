package io.agentteams.scheduler.run.domain;

import org.jspecify.annotations.Nullable;

/**
 * A job the run asks for: the planner's, a task's or the synthesiser's.
 *
 * @param role what the job is for
 * @param taskKey the task, for a task's job
 * @param member who runs it
 * @param input what the member is given
 */
public record JobOrder(Role role, @Nullable String taskKey, String member, String input) {

  /** What a run's job is for. */
  public enum Role {
    PLAN("plan"),
    TASK("task"),
    SYNTHESIS("synthesis");

    private final String wire;

    Role(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }

    public static Role fromWire(String wire) {
      for (Role role : values()) {
        if (role.wire.equals(wire)) {
          return role;
        }
      }
      throw new IllegalArgumentException("unknown run job role " + wire);
    }
  }

  /** The slot this order takes among the run's jobs: one per role and task, never two. */
  public String slot() {
    return taskKey == null ? role.wire() : role.wire() + ":" + taskKey;
  }
}
