package io.agentteams.gateway.console.view;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which active tasks intend to write overlapping paths, as the task board warns (never refuses):
 * two normalised scopes overlap when one's segments start with all of the other's.
 */
public final class ScopeOverlaps {

  private ScopeOverlaps() {}

  /** One task's scope and the other task whose scope overlaps it. */
  public record Overlap(String scope, long otherTask, String otherScope) {

    /** The warning as a person reads it. */
    public String text() {
      return scope + " overlaps #" + otherTask + " " + otherScope;
    }
  }

  /** For each active task with overlaps, its overlaps, in task order. */
  public static Map<Long, List<Overlap>> of(List<Task> tasks) {
    List<Task> active = tasks.stream().filter(Task::active).toList();
    Map<Long, List<Overlap>> found = new HashMap<>();
    for (Task task : active) {
      for (Task other : active) {
        if (other.id() == task.id()) {
          continue;
        }
        for (String mine : task.writeScopes()) {
          for (String theirs : other.writeScopes()) {
            if (overlap(mine, theirs)) {
              found
                  .computeIfAbsent(task.id(), id -> new ArrayList<>())
                  .add(new Overlap(mine, other.id(), theirs));
            }
          }
        }
      }
    }
    return found;
  }

  static boolean overlap(String a, String b) {
    return contains(a, b) || contains(b, a);
  }

  private static boolean contains(String outer, String inner) {
    return "/".equals(outer) || inner.equals(outer) || inner.startsWith(outer + "/");
  }
}
