package io.agentteams.scheduler.run.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * The tasks a run follows, as the task board imported them: ids normalised and unique, every
 * dependency another task of the plan, no cycle, every assignee a member. The board checks all of
 * this for every plan, a run's too; the run takes its answer as it is.
 *
 * @param tasks in the order the planner gave them
 */
public record Plan(List<PlanTask> tasks) {

  public Plan {
    tasks = List.copyOf(tasks);
  }

  /** One task per member, each asked to work on the objective: the fallback of an unread plan. */
  public static List<WrittenTask> fallback(List<String> members, String objective) {
    List<WrittenTask> tasks = new ArrayList<>();
    for (String member : members) {
      tasks.add(
          new WrittenTask(
              member,
              member,
              "Contribute to the objective",
              "Contribute what you can to the objective: " + objective,
              List.of()));
    }
    return tasks;
  }
}
