package io.agentteams.taskboard.task.domain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Finds a cycle in a dependency graph, so a refusal can name it. */
public final class DependencyCycles {

  private DependencyCycles() {}

  /**
   * A cycle of the graph, if it has one, as the path that closes it: {@code [a, b, c, a]} means a
   * depends on b, b on c and c on a. Nodes that appear only as dependencies are leaves.
   *
   * @param dependencies each node's dependencies
   */
  public static <K> Optional<List<K>> find(Map<K, ? extends Collection<K>> dependencies) {
    Map<K, Boolean> finished = new HashMap<>();
    for (K start : dependencies.keySet()) {
      if (finished.containsKey(start)) {
        continue;
      }
      Optional<List<K>> cycle = search(start, dependencies, finished);
      if (cycle.isPresent()) {
        return cycle;
      }
    }
    return Optional.empty();
  }

  /** Iterative depth-first search from {@code start}; the stack is the current path. */
  private static <K> Optional<List<K>> search(
      K start, Map<K, ? extends Collection<K>> dependencies, Map<K, Boolean> finished) {
    Deque<K> path = new ArrayDeque<>();
    Deque<Iterator<K>> pending = new ArrayDeque<>();
    Map<K, Boolean> onPath = new HashMap<>();
    path.push(start);
    onPath.put(start, true);
    pending.push(edges(start, dependencies));
    while (!path.isEmpty()) {
      Iterator<K> next = pending.peek();
      if (next.hasNext()) {
        K dependency = next.next();
        if (onPath.containsKey(dependency)) {
          return Optional.of(closing(path, dependency));
        }
        if (!finished.containsKey(dependency)) {
          path.push(dependency);
          onPath.put(dependency, true);
          pending.push(edges(dependency, dependencies));
        }
      } else {
        K done = path.pop();
        pending.pop();
        onPath.remove(done);
        finished.put(done, true);
      }
    }
    return Optional.empty();
  }

  private static <K> Iterator<K> edges(K node, Map<K, ? extends Collection<K>> dependencies) {
    Collection<K> out = dependencies.get(node);
    return out == null ? Collections.emptyIterator() : List.copyOf(out).iterator();
  }

  /** The part of the path from {@code repeated} to its top, closed by {@code repeated} again. */
  private static <K> List<K> closing(Deque<K> path, K repeated) {
    List<K> fromBottom = new ArrayList<>(path);
    Collections.reverse(fromBottom);
    List<K> cycle =
        new ArrayList<>(fromBottom.subList(fromBottom.indexOf(repeated), fromBottom.size()));
    cycle.add(repeated);
    return List.copyOf(cycle);
  }
}
