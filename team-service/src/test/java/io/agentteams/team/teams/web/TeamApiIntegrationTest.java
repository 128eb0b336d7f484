package io.agentteams.team.teams.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.team.TeamServiceTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

@TeamServiceTest
class TeamApiIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;

  private String owner(String id) {
    return "Bearer " + tokens.issue(new Caller.Owner(id), Duration.ofMinutes(5));
  }

  private static Map<String, Object> team(String name) {
    return Map.of(
        "name",
        name,
        "goal",
        "Write the report",
        "members",
        List.of(
            Map.of("name", "lead-writer", "agent_id", "agent-a", "lead", true),
            Map.of("name", "researcher", "agent_id", "agent-b")));
  }

  @Test
  void createsATeamThatOnlyItsOwnerCanRead() {
    String location =
        web.post()
            .uri("/api/v1/teams")
            .header("Authorization", owner("alice"))
            .bodyValue(team("Report team"))
            .exchange()
            .expectStatus()
            .isCreated()
            .expectBody()
            .jsonPath("$.status")
            .isEqualTo("provisioning")
            .jsonPath("$.members[0].conversation_id")
            .isNotEmpty()
            .returnResult()
            .getResponseHeaders()
            .getLocation()
            .toString();

    web.get()
        .uri(location)
        .header("Authorization", owner("alice"))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.name")
        .isEqualTo("Report team");
    web.get()
        .uri(location)
        .header("Authorization", owner("mallory"))
        .exchange()
        .expectStatus()
        .isNotFound()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON);
  }

  @Test
  void refusesRequestsWithoutAValidInternalToken() {
    web.get().uri("/api/v1/teams").exchange().expectStatus().isUnauthorized();
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer forged")
        .exchange()
        .expectStatus()
        .isUnauthorized()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("unauthenticated");
  }

  @Test
  void rejectsAnOverlongNameWithAProblemNamingTheLimit() {
    var body = new java.util.HashMap<>(team("n".repeat(81)));
    web.post()
        .uri("/api/v1/teams")
        .header("Authorization", owner("bob"))
        .bodyValue(body)
        .exchange()
        .expectStatus()
        .isEqualTo(422)
        .expectBody()
        .jsonPath("$.limit")
        .isEqualTo("team.name.max-chars")
        .jsonPath("$.max")
        .isEqualTo(80);
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", owner("bob"))
        .exchange()
        .expectBody()
        .jsonPath("$.length()")
        .isEqualTo(0);
  }

  @Test
  void exposesHealthProbesAndPrometheusMetrics() {
    web.get()
        .uri("/actuator/health/readiness")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.status")
        .isEqualTo("UP")
        .jsonPath("$.components.r2dbc.status")
        .isEqualTo("UP")
        .jsonPath("$.components.kafka.status")
        .isEqualTo("UP");
    web.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
    String metrics =
        web.get()
            .uri("/actuator/prometheus")
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(String.class)
            .returnResult()
            .getResponseBody();
    assertThat(metrics).contains("agentteams_outbox_published_total", "service=\"team-service\"");
  }
}
