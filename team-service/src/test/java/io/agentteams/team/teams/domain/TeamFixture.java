package io.agentteams.team.teams.domain;

import io.agentteams.team.agents.domain.AgentRuntime;
import io.agentteams.team.agents.domain.RuntimeKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Teams built through the domain's own API, as the rules see them. */
final class TeamFixture {

  static final Instant NOW = Instant.parse("2026-11-30T08:00:00.123456Z");

  private TeamFixture() {}

  /** A catalog holding a pull agent {@code agent-<i>} and a webhook agent {@code hook-<i>}. */
  static Map<String, AgentRuntime> catalog() {
    Map<String, AgentRuntime> catalog = new HashMap<>();
    for (int i = 1; i <= 9; i++) {
      catalog.put("agent-" + i, AgentRuntime.pull());
      catalog.put("hook-" + i, new AgentRuntime(RuntimeKind.WEBHOOK, "https://hooks.example/" + i));
    }
    return catalog;
  }

  /**
   * {@code count} members named {@code member-<i>} bound to {@code agent-<i>}, the first the lead.
   */
  static List<NewMember> members(int count) {
    List<NewMember> members = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      members.add(new NewMember("member-" + i, "agent-" + i, i == 1));
    }
    return members;
  }

  static Team create(String name, String goal, List<NewMember> members) {
    return Team.create(
        UUID.randomUUID(),
        "owner-1",
        name,
        goal,
        members,
        TeamLimits.defaults(),
        catalog(),
        member -> "conversation-" + member.value(),
        NOW);
  }

  /** A team with a lead and {@code count - 1} other members, freshly created. */
  static Team teamWithLeadAndMembers(int count) {
    return create("Report team", "Write the report", members(count));
  }

  /** A ready team: every member's conversation ensured. */
  static Team readyTeam(int count) {
    Team team = teamWithLeadAndMembers(count);
    for (Member member : team.members()) {
      team.memberEnsured(member.name(), ConversationOutcome.ALLOCATED);
    }
    team.takeEvents();
    return team;
  }
}
