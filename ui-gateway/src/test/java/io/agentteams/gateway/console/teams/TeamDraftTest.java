package io.agentteams.gateway.console.teams;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.gateway.console.ConsoleProperties;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.util.LinkedMultiValueMap;

class TeamDraftTest {

  private static final ConsoleProperties.Limits LIMITS =
      new ConsoleProperties.Limits(
          80, 160, 2000, 4000, 2, 8, 20, 40, 4000, 8000, 4000, 8000, 8000, 80, 160, 2000, 4000, 80,
          160, 1000, 2000);

  @Test
  void aDraftAtTheExactLimitsHasNoProblemsAndOnePastIsRefusedByName() {
    assertThat(draft("界".repeat(53) + "a", "g".repeat(2000), 2).problems(LIMITS)).isEmpty();
    assertThat(draft("界".repeat(54), "g", 2).problems(LIMITS)).containsKey("name");
    assertThat(draft("a", "🚀".repeat(1001), 2).problems(LIMITS)).containsKey("goal");
    assertThat(draft("a", "g", 1).problems(LIMITS)).containsKey("members");
    assertThat(draft("a", "g", 9).problems(LIMITS)).containsKey("members");
  }

  @Test
  void memberNamesAreKebabCaseAndUniqueAndTheLeadIsTheChosenIndex() {
    var form = new LinkedMultiValueMap<String, String>();
    form.add("name", "Team");
    form.add("goal", "Goal");
    form.addAll("member_name", List.of("lead", "Bad Name"));
    form.addAll("member_agent", List.of("a", "b"));
    form.add("lead", "0");
    TeamDraft draft = TeamDraft.of(form);
    assertThat(draft.members().get(0).lead()).isTrue();
    assertThat(draft.members().get(1).lead()).isFalse();
    assertThat(draft.problems(LIMITS).get("members")).contains("kebab-case");
    form.put("member_name", List.of("lead", "lead"));
    assertThat(TeamDraft.of(form).problems(LIMITS).get("members")).contains("Two members");
  }

  private static TeamDraft draft(String name, String goal, int members) {
    var form = new LinkedMultiValueMap<String, String>();
    form.add("name", name);
    form.add("goal", goal);
    for (int i = 0; i < members; i++) {
      form.add("member_name", "member-" + i);
      form.add("member_agent", "agent-" + i);
    }
    return TeamDraft.of(form);
  }
}
