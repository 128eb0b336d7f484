package io.agentteams.taskboard.task.domain;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Normalising a task's scopes and finding overlaps between active tasks. */
public final class WriteScopes {

  private WriteScopes() {}

  /**
   * A task's scopes normalised, without duplicates and without scopes another of them contains, in
   * path order.
   */
  public static List<WriteScope> normalise(Collection<String> raw) {
    TreeSet<WriteScope> scopes = new TreeSet<>();
    for (String path : raw) {
      scopes.add(WriteScope.normalise(path));
    }
    List<WriteScope> minimal = new ArrayList<>();
    for (WriteScope scope : scopes) {
      boolean covered = false;
      for (WriteScope other : scopes) {
        if (!other.equals(scope) && other.contains(scope)) {
          covered = true;
          break;
        }
      }
      if (!covered) {
        minimal.add(scope);
      }
    }
    return List.copyOf(minimal);
  }

  /**
   * Every pair of overlapping scopes between {@code task} and the other tasks, in task and path
   * order.
   *
   * @param others the other tasks' scopes (the task itself is skipped if present)
   */
  public static List<Overlap> overlaps(
      TaskId task, List<WriteScope> scopes, Map<TaskId, List<WriteScope>> others) {
    List<Overlap> found = new ArrayList<>();
    if (scopes.isEmpty()) {
      return found;
    }
    others.keySet().stream()
        .sorted()
        .filter(other -> !other.equals(task))
        .forEach(
            other -> {
              for (WriteScope mine : scopes) {
                for (WriteScope theirs : others.get(other)) {
                  if (mine.overlaps(theirs)) {
                    found.add(new Overlap(task, mine, other, theirs));
                  }
                }
              }
            });
    return List.copyOf(found);
  }

  /** Two active tasks that intend to write overlapping paths. */
  public record Overlap(TaskId task, WriteScope scope, TaskId otherTask, WriteScope otherScope) {}
}
