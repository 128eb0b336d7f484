package io.agentteams.agents.scripted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.agentteams.sdk.tasks.PlannedTask;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScriptedTeamTest {

  @Test
  void oneSeedAlwaysGivesTheSameTextsAndOtherSeedsOtherOnes() {
    ScriptedTeam once = ScriptedTeam.launchBrief(7, Duration.ZERO);
    ScriptedTeam again = ScriptedTeam.launchBrief(7, Duration.ofSeconds(2));
    assertThat(again.values()).isEqualTo(once.values());
    assertThat(again.goal()).isEqualTo(once.goal()).doesNotContain("{");
    assertThat(
            List.of(1L, 2L, 3L, 4L, 5L).stream()
                .map(seed -> ScriptedTeam.launchBrief(seed, Duration.ZERO).values())
                .distinct()
                .count())
        .isGreaterThan(1);
  }

  @Test
  void thePlanRunsResearchThenReviewThenWrite() {
    assertThat(ScriptedTeam.plan())
        .extracting(PlannedTask::id, PlannedTask::dependsOn)
        .containsExactly(
            tuple("research", List.of()),
            tuple("review", List.of("research")),
            tuple("write", List.of("review")));
  }

  @Test
  void aTestReplacesOneMembersScriptAndKeepsTheOthers() {
    ScriptedTeam team = ScriptedTeam.launchBrief(7, Duration.ZERO);
    Step marker = turn -> Optional.empty();
    Script changed = team.scripts().get("writer").withWorkStep(0, marker);
    ScriptedTeam mine = team.with("writer", changed);
    assertThat(mine.scripts().get("writer").onWork().get(0)).isSameAs(marker);
    assertThat(mine.scripts().get("lead")).isSameAs(team.scripts().get("lead"));
    assertThat(team.scripts().get("writer").onWork().get(0)).isNotSameAs(marker);
    assertThat(team.scripts().get("writer").onWork())
        .extracting(Object::toString)
        .containsSubsequence("read context", "ask the owner", "claim write", "complete", "answer");
  }
}
