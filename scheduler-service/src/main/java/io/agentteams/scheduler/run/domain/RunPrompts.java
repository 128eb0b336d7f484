package io.agentteams.scheduler.run.domain;

import java.util.List;
import java.util.Map;

/**
 * The inputs a run gives its jobs: the planner is asked for a plan in a stated shape (though its
 * answer is read tolerantly), each task's member gets the team's context (goal, public state,
 * recent messages), the objective, its task, its dependencies' results and who is on the team, and
 * the synthesiser gets everything the tasks produced.
 */
public final class RunPrompts {

  /** The most of one task's result or error passed on to a later job. */
  public static final int RESULT_MAX_CHARS = 4000;

  private RunPrompts() {}

  /** Asks the planner for a plan. */
  public static String plan(String objective, List<String> members) {
    return """
        You plan a team run. Objective:
        %s

        Team members: %s

        Answer with a JSON array of tasks, each
        {"id": "kebab-case-id", "assignee": "<member>", "title": "...", "instruction": "...",
         "dependencies": ["<id of a task whose result it needs>", ...]}.
        Assign every task to one of the members above; tasks without dependencies run in parallel.
        """
        .formatted(objective, String.join(", ", members));
  }

  /** What a task's member is given. */
  public static String task(
      String objective, List<String> members, PlanTask task, Map<String, RunTask> dependencies) {
    StringBuilder input = new StringBuilder();
    input.append("Team run objective:\n").append(objective).append("\n\n");
    input.append("Team members: ").append(String.join(", ", members)).append("\n\n");
    input.append("Your task [").append(task.key()).append("]: ").append(task.title()).append('\n');
    input.append(task.instruction()).append('\n');
    if (!dependencies.isEmpty()) {
      input.append("\nResults of the tasks it depends on:\n");
      for (PlanTask dependency : dependencies.values().stream().map(RunTask::definition).toList()) {
        RunTask done = dependencies.get(dependency.key());
        input
            .append("- [")
            .append(dependency.key())
            .append("] by ")
            .append(dependency.assignee())
            .append(": ")
            .append(capped(done.result() == null ? "" : done.result()))
            .append('\n');
      }
    }
    input.append("\nAnswer with your task's result.");
    return input.toString();
  }

  /**
   * A task's input with the team's context before it: the team's goal, its public state and its
   * recent messages. The context is the team's own text, quoted as data for the member to weigh.
   */
  public static String withContext(TeamContext context, String taskInput) {
    if (context.isEmpty()) {
      return taskInput;
    }
    StringBuilder input = new StringBuilder();
    if (context.goal() != null && !context.goal().isBlank()) {
      input.append("Team goal:\n").append(context.goal()).append("\n\n");
    }
    if (!context.state().isEmpty()) {
      input.append("Team public state (current entries):\n");
      for (TeamContext.StateLine line : context.state()) {
        input
            .append("- [")
            .append(line.kind())
            .append("] ")
            .append(line.title())
            .append(": ")
            .append(line.content())
            .append('\n');
      }
      input.append('\n');
    }
    if (!context.messages().isEmpty()) {
      input.append("Recent team messages:\n");
      for (TeamContext.MessageLine line : context.messages()) {
        input
            .append("- ")
            .append(line.sender())
            .append(" (")
            .append(line.sentAt())
            .append("): ")
            .append(line.text())
            .append('\n');
      }
      input.append('\n');
    }
    return input.append(taskInput).toString();
  }

  /** What the synthesiser is given. */
  public static String synthesis(String objective, List<RunTask> tasks) {
    StringBuilder input = new StringBuilder();
    input
        .append("Team run objective:\n")
        .append(objective)
        .append("\n\nThe plan and its results:\n");
    for (RunTask task : tasks) {
      PlanTask definition = task.definition();
      input
          .append("- [")
          .append(definition.key())
          .append("] ")
          .append(definition.title())
          .append(" (")
          .append(definition.assignee());
      if (!definition.dependencies().isEmpty()) {
        input.append(", after ").append(String.join(", ", definition.dependencies()));
      }
      input.append(") ").append(task.state().wire()).append(": ");
      String text = task.state() == TaskState.COMPLETED ? task.result() : task.error();
      input.append(capped(text == null ? "" : text)).append('\n');
    }
    input.append(
        "\nCompose the run's result from these, citing each task's output by its id in brackets.");
    return input.toString();
  }

  private static String capped(String text) {
    return text.length() <= RESULT_MAX_CHARS
        ? text
        : text.substring(0, RESULT_MAX_CHARS) + " [cut at " + RESULT_MAX_CHARS + " characters]";
  }
}
