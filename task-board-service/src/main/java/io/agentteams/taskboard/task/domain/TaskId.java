package io.agentteams.taskboard.task.domain;

/** A task's id: numeric, local to its team, allocated monotonically and never reused. */
public record TaskId(long value) implements Comparable<TaskId> {

  /** The largest id a JSON client can hold exactly (2^53 - 1); ids beyond it are never issued. */
  public static final long MAX = 9_007_199_254_740_991L;

  public TaskId {
    if (value < 1 || value > MAX) {
      throw new IllegalArgumentException("task ids run from 1 to " + MAX + ", got " + value);
    }
  }

  public static TaskId of(long value) {
    return new TaskId(value);
  }

  @Override
  public int compareTo(TaskId other) {
    return Long.compare(value, other.value);
  }

  @Override
  public String toString() {
    return Long.toString(value);
  }
}
