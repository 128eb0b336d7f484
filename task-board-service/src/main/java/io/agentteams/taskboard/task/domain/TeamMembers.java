package io.agentteams.taskboard.task.domain;

import java.util.Set;

/** The names on a team's roster, which tasks may be assigned to. */
public record TeamMembers(Set<String> names) {

  public TeamMembers {
    names = Set.copyOf(names);
  }

  public boolean has(String name) {
    return names.contains(name);
  }
}
