package io.agentteams.gateway.console.teams;

import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.gateway.console.view.TextMeasure;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.util.MultiValueMap;

/**
 * A team as the create form holds it, exactly as typed: re-shown unchanged when the team is
 * refused, so nothing the person wrote is lost.
 *
 * @param name the team's name
 * @param goal its goal
 * @param members the chosen members, in the order chosen
 */
public record TeamDraft(String name, String goal, List<DraftMember> members) {

  private static final Pattern KEBAB = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

  /**
   * One chosen member.
   *
   * @param name its member name (lowercase kebab-case)
   * @param agentId the agent it is bound to
   * @param agentName the agent's display name, to show it again
   * @param lead whether it leads the team
   */
  public record DraftMember(String name, String agentId, String agentName, boolean lead) {}

  /** An empty draft. */
  public static TeamDraft empty() {
    return new TeamDraft("", "", List.of());
  }

  /** The draft a submitted form holds. */
  public static TeamDraft of(MultiValueMap<String, String> form) {
    List<String> names = form.getOrDefault("member_name", List.of());
    List<String> agents = form.getOrDefault("member_agent", List.of());
    List<String> agentNames = form.getOrDefault("member_agent_name", List.of());
    String lead = form.getFirst("lead");
    List<DraftMember> members = new ArrayList<>();
    for (int i = 0; i < Math.min(names.size(), agents.size()); i++) {
      String agentName = i < agentNames.size() ? agentNames.get(i) : agents.get(i);
      members.add(
          new DraftMember(
              names.get(i).strip(), agents.get(i), agentName, String.valueOf(i).equals(lead)));
    }
    return new TeamDraft(
        value(form.getFirst("name")), value(form.getFirst("goal")), List.copyOf(members));
  }

  /** What is wrong with the draft before it is sent, by field; empty when nothing is. */
  public Map<String, String> problems(ConsoleProperties.Limits limits) {
    Map<String, String> problems = new LinkedHashMap<>();
    TextMeasure nameMeasure = TextMeasure.of(name);
    if (name.isBlank()) {
      problems.put("name", "Give the team a name.");
    } else if (!nameMeasure.fits(limits.teamNameChars(), limits.teamNameBytes())) {
      problems.put(
          "name",
          "The name is longer than "
              + limits.teamNameChars()
              + " characters or "
              + limits.teamNameBytes()
              + " bytes.");
    }
    TextMeasure goalMeasure = TextMeasure.of(goal);
    if (goal.isBlank()) {
      problems.put("goal", "Say what the team is for.");
    } else if (!goalMeasure.fits(limits.goalChars(), limits.goalBytes())) {
      problems.put(
          "goal",
          "The goal is longer than "
              + limits.goalChars()
              + " characters or "
              + limits.goalBytes()
              + " bytes.");
    }
    if (members.size() < limits.minMembers() || members.size() > limits.maxMembers()) {
      problems.put(
          "members", "Choose " + limits.minMembers() + " to " + limits.maxMembers() + " members.");
    }
    Set<String> seen = new HashSet<>();
    for (DraftMember member : members) {
      if (!KEBAB.matcher(member.name()).matches()
          || member.name().length() > limits.memberNameChars()) {
        problems.put(
            "members",
            "Member names are lowercase kebab-case (like research-lead), at most "
                + limits.memberNameChars()
                + " characters: "
                + member.name());
        break;
      }
      if (!seen.add(member.name())) {
        problems.put("members", "Two members are named " + member.name() + ".");
        break;
      }
    }
    return problems;
  }

  /** The body of the API's create request. */
  public Map<String, Object> request() {
    List<Map<String, Object>> roster = new ArrayList<>();
    for (DraftMember member : members) {
      roster.add(
          Map.of("name", member.name(), "agent_id", member.agentId(), "lead", member.lead()));
    }
    return Map.of("name", name, "goal", goal, "members", roster);
  }

  private static String value(String text) {
    return text == null ? "" : text;
  }
}
