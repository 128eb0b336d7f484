package io.agentteams.taskboard.task.domain;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The status rules restated as a fixpoint, the way one would explain them: first find every open
 * task that is blocked (a dependency missing, failed, cancelled, or blocked itself) by repeating
 * until nothing changes; then the rest is ready when all dependencies are completed, else pending.
 */
final class StatusModel {

  private StatusModel() {}

  static Map<TaskId, Derived> derive(Map<TaskId, StatusDerivation.Node> nodes) {
    Set<TaskId> blocked = new HashSet<>();
    boolean changed = true;
    while (changed) {
      changed = false;
      for (var entry : nodes.entrySet()) {
        StatusDerivation.Node node = entry.getValue();
        if (node.state() != TaskState.OPEN || node.held() || blocked.contains(entry.getKey())) {
          continue;
        }
        for (TaskId dependency : node.dependencies()) {
          if (blocking(nodes.get(dependency)) || blocked.contains(dependency)) {
            blocked.add(entry.getKey());
            changed = true;
            break;
          }
        }
      }
    }
    Map<TaskId, Derived> result = new HashMap<>();
    for (var entry : nodes.entrySet()) {
      StatusDerivation.Node node = entry.getValue();
      result.put(entry.getKey(), statusOf(node, nodes, blocked));
    }
    return result;
  }

  private static boolean blocking(StatusDerivation.Node dependency) {
    return dependency == null
        || dependency.state() == TaskState.FAILED
        || dependency.state() == TaskState.CANCELLED;
  }

  private static Derived statusOf(
      StatusDerivation.Node node, Map<TaskId, StatusDerivation.Node> nodes, Set<TaskId> blocked) {
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
    TaskId first = null;
    BlockedReason.Kind kind = null;
    for (TaskId dependency : node.dependencies()) {
      StatusDerivation.Node other = nodes.get(dependency);
      BlockedReason.Kind why =
          other == null
              ? BlockedReason.Kind.DEPENDENCY_MISSING
              : other.state() == TaskState.FAILED
                  ? BlockedReason.Kind.DEPENDENCY_FAILED
                  : other.state() == TaskState.CANCELLED
                      ? BlockedReason.Kind.DEPENDENCY_CANCELLED
                      : blocked.contains(dependency) ? BlockedReason.Kind.DEPENDENCY_BLOCKED : null;
      if (why != null && (first == null || dependency.compareTo(first) < 0)) {
        first = dependency;
        kind = why;
      }
    }
    if (first != null) {
      return Derived.blocked(kind, first);
    }
    boolean allCompleted =
        node.dependencies().stream().allMatch(d -> nodes.get(d).state() == TaskState.COMPLETED);
    return Derived.of(allCompleted ? TaskStatus.READY : TaskStatus.PENDING);
  }
}
