package io.agentteams.scheduler.run.domain;

import java.util.List;
import java.util.Objects;

/**
 * One task of a plan, as the planner described it and the task board imported it.
 *
 * @param key the task's key within the plan, as the board normalised it
 * @param assignee the member that does it
 * @param title a short name
 * @param instruction what the member is asked to do
 * @param dependencies keys of the tasks whose results it needs
 */
public record PlanTask(
    String key, String assignee, String title, String instruction, List<String> dependencies) {

  public PlanTask {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(assignee, "assignee");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(instruction, "instruction");
    dependencies = List.copyOf(dependencies);
  }
}
