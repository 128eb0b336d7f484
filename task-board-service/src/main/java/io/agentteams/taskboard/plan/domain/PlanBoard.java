package io.agentteams.taskboard.plan.domain;

import io.agentteams.taskboard.task.domain.Actor;
import io.agentteams.taskboard.task.domain.Board;
import io.agentteams.taskboard.task.domain.BoardProblems;
import io.agentteams.taskboard.task.domain.DependencyCycles;
import io.agentteams.taskboard.task.domain.PlannedTask;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskLimits;
import io.agentteams.taskboard.task.domain.TeamMembers;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a plan does to its team's board: a member imports it, adding its tasks at once (held for the
 * owner's approval, or not), and the owner approves it, releasing its held tasks.
 */
public final class PlanBoard {

  private PlanBoard() {}

  /**
   * Adds a normalised plan's tasks at once, in plan order, with ids from the board's counter. Held
   * tasks wait for {@link #approve}.
   *
   * @throws io.agentteams.platform.problem.DomainFailure naming the first rule the plan breaks;
   *     nothing is added then
   */
  public static List<Task> importPlan(
      Board board,
      Actor actor,
      UUID planId,
      List<PlannedTask> plan,
      boolean hold,
      TeamMembers members,
      TaskLimits limits,
      Instant now) {
    if (!(actor instanceof Actor.Member member)) {
      throw BoardProblems.membersOnly("import plans");
    }
    if (plan.isEmpty()) {
      throw PlanProblems.emptyPlan();
    }
    Map<String, PlannedTask> byKey = new LinkedHashMap<>();
    for (PlannedTask planned : plan) {
      if (byKey.put(planned.key(), planned) != null) {
        throw PlanProblems.duplicateKey(planned.key());
      }
    }
    Map<String, List<String>> keyGraph = new LinkedHashMap<>();
    for (PlannedTask planned : plan) {
      for (String dependency : planned.dependencies()) {
        if (!byKey.containsKey(dependency)) {
          throw PlanProblems.unknownDependency(planned.key(), dependency, "not in the plan");
        }
      }
      if (planned.dependencies().size() > limits.maxDependencies()) {
        throw BoardProblems.tooManyDependencies(
            limits.maxDependencies(), planned.dependencies().size());
      }
      keyGraph.put(planned.key(), planned.dependencies());
    }
    DependencyCycles.find(keyGraph)
        .ifPresent(
            cycle -> {
              throw BoardProblems.cycle(cycle);
            });
    return board.addPlanned(member, planId, plan, hold, members, limits, now);
  }

  /**
   * Releases the plan's held tasks: each takes its derived status (and says so in its own event).
   * Only the team's owner approves.
   */
  public static Board.Consequences approve(Board board, Actor actor, UUID planId, Instant now) {
    if (!(actor instanceof Actor.TeamOwner)) {
      throw PlanProblems.ownerOnly();
    }
    return board.releaseHeld(planId, now);
  }
}
