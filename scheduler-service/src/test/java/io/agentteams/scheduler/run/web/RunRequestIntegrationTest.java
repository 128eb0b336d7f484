package io.agentteams.scheduler.run.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Starting a run: refusals say plainly what is missing. */
@SchedulerServiceTest
class RunRequestIntegrationTest extends SchedulerIntegrationTest {

  @Test
  void aRunOnATeamWithoutALeadAndNoPlannerNamedIsRefusedSayingTheTeamHasNoLead() {
    Teams.Team team = teams.create(unique("nell"), Map.of("one", unique("agent")));

    Map<?, ?> refused =
        web.post()
            .uri("/api/v1/teams/{team}/runs", team.id())
            .header("Authorization", owner(team.ownerId()))
            .bodyValue(Map.of("objective", "Plan the launch"))
            .exchange()
            .expectStatus()
            .isBadRequest()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();

    assertThat(refused.get("code")).isEqualTo("no-lead");
    assertThat(refused.toString())
        .contains("This team has no lead to plan the run: name a planner among its members")
        .doesNotContain("(the lead)");
  }
}
