package io.agentteams.scheduler.run.domain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The tasks a run follows: ids unique and normalised, every dependency another task of the plan, no
 * cycle, every assignee a member of the team. A plan breaking any of these is refused with {@link
 * InvalidPlan} naming what is wrong; no member is ever guessed in place of an unknown one.
 *
 * @param tasks in the order the planner gave them
 */
public record Plan(List<PlanTask> tasks) {

  private static final Pattern KEY = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

  public Plan {
    tasks = List.copyOf(tasks);
  }

  /** Checks the tasks against the team's members and the plan size limit. */
  public static Plan of(List<PlanTask> tasks, Set<String> members, int maxTasks) {
    if (tasks.isEmpty()) {
      throw new InvalidPlan("the plan has no task");
    }
    if (tasks.size() > maxTasks) {
      throw new InvalidPlan(
          "the plan has " + tasks.size() + " tasks; a run follows at most " + maxTasks);
    }
    Map<String, PlanTask> byKey = new LinkedHashMap<>();
    for (PlanTask task : tasks) {
      if (!KEY.matcher(task.key()).matches()) {
        throw new InvalidPlan("task id '" + task.key() + "' is not a lowercase kebab-case id");
      }
      if (byKey.put(task.key(), task) != null) {
        throw new InvalidPlan("task id '" + task.key() + "' is used twice");
      }
      if (!members.contains(task.assignee())) {
        throw new InvalidPlan(
            "task '"
                + task.key()
                + "' is assigned to '"
                + task.assignee()
                + "', who is not a member of the team (members: "
                + String.join(", ", members.stream().sorted().toList())
                + ")");
      }
      if (task.instruction().isBlank()) {
        throw new InvalidPlan("task '" + task.key() + "' has no instruction");
      }
    }
    for (PlanTask task : tasks) {
      for (String dependency : task.dependencies()) {
        if (dependency.equals(task.key())) {
          throw new InvalidPlan("task '" + task.key() + "' depends on itself");
        }
        if (!byKey.containsKey(dependency)) {
          throw new InvalidPlan(
              "task '" + task.key() + "' depends on '" + dependency + "', which the plan lacks");
        }
      }
    }
    List<String> cycle = cycle(byKey);
    if (!cycle.isEmpty()) {
      throw new InvalidPlan("the plan's dependencies form a cycle: " + String.join(" -> ", cycle));
    }
    return new Plan(tasks);
  }

  /** One task per member, each asked to work on the objective: the fallback of an unread plan. */
  public static Plan fallback(List<String> members, String objective) {
    List<PlanTask> tasks = new ArrayList<>();
    for (String member : members) {
      tasks.add(
          new PlanTask(
              member,
              member,
              "Contribute to the objective",
              "Contribute what you can to the objective: " + objective,
              List.of()));
    }
    return new Plan(tasks);
  }

  /** The task with this key. */
  public PlanTask task(String key) {
    return tasks.stream()
        .filter(t -> t.key().equals(key))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no task " + key));
  }

  /**
   * A cycle among the tasks' dependencies, from a task back to itself; empty when there is none.
   */
  private static List<String> cycle(Map<String, PlanTask> byKey) {
    Map<String, Integer> colour = new HashMap<>();
    for (String start : byKey.keySet()) {
      if (colour.containsKey(start)) {
        continue;
      }
      // Iterative depth-first search: 1 = on the current path, 2 = done.
      Deque<String> path = new ArrayDeque<>();
      Deque<Integer> next = new ArrayDeque<>();
      path.push(start);
      next.push(0);
      colour.put(start, 1);
      while (!path.isEmpty()) {
        String at = path.peek();
        int index = next.pop();
        List<String> dependencies = byKey.get(at).dependencies();
        if (index == dependencies.size()) {
          colour.put(at, 2);
          path.pop();
          continue;
        }
        next.push(index + 1);
        String dependency = dependencies.get(index);
        Integer seen = colour.get(dependency);
        if (seen == null) {
          colour.put(dependency, 1);
          path.push(dependency);
          next.push(0);
        } else if (seen == 1) {
          List<String> onPath = new ArrayList<>(path);
          List<String> cycle = new ArrayList<>();
          cycle.add(dependency);
          for (String key : onPath) {
            cycle.add(key);
            if (key.equals(dependency)) {
              break;
            }
          }
          Collections.reverse(cycle);
          return cycle;
        }
      }
    }
    return List.of();
  }

  /** Keys of every task, for checks that need the set. */
  public Set<String> keys() {
    Set<String> keys = new HashSet<>();
    tasks.forEach(t -> keys.add(t.key()));
    return keys;
  }
}
