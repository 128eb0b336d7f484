package io.agentteams.contracts.scheduler;

import io.agentteams.contracts.EventPayload;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A team run read its planner's answer into tasks and hands them to the task board, which owns
 * plans: the board imports them as one plan whose id is the run's (normalised ids, DAG check,
 * limits; held for the owner's approval when the run requires it) and answers with {@code
 * PlanImported} or {@code PlanRefused}. The board then follows the run's {@link RunProgressed}
 * entries on the plan's tasks.
 *
 * @param runId the run, and the id of the plan the board makes
 * @param teamId its team
 * @param planner the member whose plan it is; the board imports it in that name
 * @param awaitingApproval whether the plan waits for the owner's approval of the run
 * @param tasks the tasks, in the planner's order
 */
public record RunPlanSubmitted(
    String runId, String teamId, String planner, boolean awaitingApproval, List<Item> tasks)
    implements EventPayload {

  public static final String TYPE = "RunPlanSubmitted";

  public RunPlanSubmitted {
    tasks = List.copyOf(tasks);
  }

  /**
   * One task as the planner wrote it.
   *
   * @param id its id as written (the board normalises it), or null when it had none
   * @param assignee the member that does it
   * @param title a short name
   * @param instruction what the member is asked to do
   * @param dependencies ids of the tasks it depends on, as written
   */
  public record Item(
      @Nullable String id,
      String assignee,
      String title,
      String instruction,
      List<String> dependencies) {

    public Item {
      dependencies = dependencies == null ? List.of() : List.copyOf(dependencies);
    }
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
