package io.agentteams.gateway.console.view;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** A member as the roster shows it: its binding and its live state. */
public record RosterRow(Team.Member member, MemberState state) {

  /** The roster of a team, in roster order, every worker taken as connected. */
  public static List<RosterRow> of(Team team, Collection<Job> jobs) {
    return of(team, jobs, agent -> true);
  }

  /** The roster of a team, in roster order, knowing which pull agents have a worker connected. */
  public static List<RosterRow> of(
      Team team, Collection<Job> jobs, Predicate<String> workerConnected) {
    Map<String, MemberState> states = MemberStates.of(team, jobs, workerConnected);
    return team.members().stream()
        .map(member -> new RosterRow(member, states.getOrDefault(member.name(), MemberState.IDLE)))
        .toList();
  }

  /** A version of the row: changes when the state does. */
  public String version() {
    return member.name() + ":" + state.key() + ":" + member.provisioning();
  }
}
