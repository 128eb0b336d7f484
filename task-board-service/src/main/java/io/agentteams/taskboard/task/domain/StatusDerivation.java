package io.agentteams.taskboard.task.domain;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Derives the status of every task of a board from what was done to it and to its dependencies.
 *
 * <p>An open task that is held for approval is {@code awaiting_approval}. Otherwise its
 * dependencies are looked at in id order, and the first one that is missing (deleted), failed,
 * cancelled or blocked makes it {@code blocked} with that reason. If none does, it is {@code ready}
 * when every dependency is completed and {@code pending} otherwise. Claimed and finished tasks keep
 * their explicit state.
 */
public final class StatusDerivation {

  /**
   * What derivation needs to know about a live (not deleted) task.
   *
   * @param state what was explicitly done to it
   * @param held whether it waits for a plan's approval
   * @param dependencies the tasks it waits for
   */
  public record Node(TaskState state, boolean held, List<TaskId> dependencies) {
    public Node {
      dependencies = List.copyOf(dependencies);
    }
  }

  private final Map<TaskId, Node> nodes;
  private final Map<TaskId, Derived> derived = new HashMap<>();
  private final Set<TaskId> visiting = new HashSet<>();

  private StatusDerivation(Map<TaskId, Node> nodes) {
    this.nodes = nodes;
  }

  /**
   * The status of every task in {@code nodes}; a dependency absent from it counts as deleted.
   *
   * @throws IllegalStateException when the dependencies form a cycle (the board never stores one)
   */
  public static Map<TaskId, Derived> derive(Map<TaskId, Node> nodes) {
    StatusDerivation derivation = new StatusDerivation(nodes);
    for (TaskId id : nodes.keySet()) {
      derivation.statusOf(id);
    }
    return Map.copyOf(derivation.derived);
  }

  private Derived statusOf(TaskId id) {
    Derived known = derived.get(id);
    if (known != null) {
      return known;
    }
    if (!visiting.add(id)) {
      throw new IllegalStateException("dependency cycle through task " + id);
    }
    Derived result = compute(nodes.get(id));
    visiting.remove(id);
    derived.put(id, result);
    return result;
  }

  private Derived compute(Node node) {
    switch (node.state()) {
      case IN_PROGRESS:
        return Derived.of(TaskStatus.IN_PROGRESS);
      case COMPLETED:
        return Derived.of(TaskStatus.COMPLETED);
      case FAILED:
        return Derived.of(TaskStatus.FAILED);
      case CANCELLED:
        return Derived.of(TaskStatus.CANCELLED);
      default:
        break;
    }
    if (node.held()) {
      return Derived.of(TaskStatus.AWAITING_APPROVAL);
    }
    boolean allCompleted = true;
    for (TaskId dependency : node.dependencies().stream().sorted().toList()) {
      if (!nodes.containsKey(dependency)) {
        return Derived.blocked(BlockedReason.Kind.DEPENDENCY_MISSING, dependency);
      }
      TaskStatus status = statusOf(dependency).status();
      switch (status) {
        case FAILED:
          return Derived.blocked(BlockedReason.Kind.DEPENDENCY_FAILED, dependency);
        case CANCELLED:
          return Derived.blocked(BlockedReason.Kind.DEPENDENCY_CANCELLED, dependency);
        case BLOCKED:
          return Derived.blocked(BlockedReason.Kind.DEPENDENCY_BLOCKED, dependency);
        case COMPLETED:
          break;
        default:
          allCompleted = false;
      }
    }
    return Derived.of(allCompleted ? TaskStatus.READY : TaskStatus.PENDING);
  }
}
