package io.agentteams.scheduler.run.domain;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One task as the planner wrote it, read but not yet checked: the task board normalises its id and
 * dependencies, checks the plan is a DAG within its limits and that every assignee is a member, and
 * answers with the {@link PlanTask}s the run follows.
 *
 * @param id its id as written, or null when it had none (the board gives it one)
 * @param assignee the member named to do it, matched to the team's names where one matches
 * @param title a short name
 * @param instruction what the member is asked to do
 * @param dependencies ids of the tasks whose results it needs, as written
 */
public record WrittenTask(
    @Nullable String id,
    String assignee,
    String title,
    String instruction,
    List<String> dependencies) {

  public WrittenTask {
    Objects.requireNonNull(assignee, "assignee");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(instruction, "instruction");
    dependencies = List.copyOf(dependencies);
  }
}
