package io.agentteams.taskboard.task.domain;

import io.agentteams.platform.problem.ProblemException;
import java.util.List;
import java.util.Map;

/** Refusals that are about the board or the request rather than one existing task. */
public final class BoardProblems {

  private BoardProblems() {}

  public static ProblemException membersOnly(String action) {
    return new ProblemException(
        ProblemException.Kind.FORBIDDEN, "members-only", "only members of the team may " + action);
  }

  public static ProblemException leadOnly(String action) {
    return new ProblemException(
        ProblemException.Kind.FORBIDDEN, "lead-only", "only the team's lead may " + action);
  }

  public static ProblemException unknownMember(String name) {
    return new ProblemException(
        ProblemException.Kind.INVALID,
        "unknown-member",
        "'" + name + "' is not a member of the team",
        Map.of("member", name));
  }

  public static ProblemException unknownDependency(TaskId task, boolean deleted) {
    return new ProblemException(
        ProblemException.Kind.INVALID,
        "unknown-dependency",
        "dependency " + task + (deleted ? " was deleted" : " does not exist"),
        Map.of("dependency", task.value(), "deleted", deleted));
  }

  public static <K> ProblemException cycle(List<K> cycle) {
    StringBuilder path = new StringBuilder();
    for (K node : cycle) {
      path.append(path.length() == 0 ? "" : " -> ").append(node);
    }
    return new ProblemException(
        ProblemException.Kind.INVALID,
        "dependency-cycle",
        "the dependencies would form a cycle: " + path,
        Map.of("cycle", cycle.stream().map(BoardProblems::wire).toList()));
  }

  private static Object wire(Object node) {
    return node instanceof TaskId id ? id.value() : node.toString();
  }
}
