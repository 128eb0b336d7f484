package io.agentteams.team.teams.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.team.TeamServiceTest;
import io.agentteams.team.support.TeamApi;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

@TeamServiceTest
class TeamApiIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;
  TeamApi api;

  @BeforeEach
  void setUp() {
    api = new TeamApi(web, tokens);
  }

  private Map<String, String> registeredPair(String owner) {
    String lead = TeamApi.newAgentId("agent-a");
    String researcher = TeamApi.newAgentId("agent-b");
    api.registerAgent(owner, lead);
    api.registerAgent(owner, researcher);
    Map<String, String> roster = new LinkedHashMap<>();
    roster.put("lead-writer", lead);
    roster.put("researcher", researcher);
    return roster;
  }

  @Test
  void createsATeamThatOnlyItsOwnerCanRead() {
    String alice = TeamApi.newOwner("alice");
    String location =
        web.post()
            .uri("/api/v1/teams")
            .header("Authorization", api.owner(alice))
            .bodyValue(TeamApi.teamBody("Report team", registeredPair(alice)))
            .exchange()
            .expectStatus()
            .isCreated()
            .expectBody()
            .jsonPath("$.id")
            .isNotEmpty()
            .jsonPath("$.status")
            .isEqualTo("provisioning")
            .jsonPath("$.members[0].conversation_id")
            .isNotEmpty()
            .jsonPath("$.members[0].provisioning")
            .isEqualTo("pending")
            .returnResult()
            .getResponseHeaders()
            .getLocation()
            .toString();

    web.get()
        .uri(location)
        .header("Authorization", api.owner(alice))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.name")
        .isEqualTo("Report team");
    web.get()
        .uri(location)
        .header("Authorization", api.owner("mallory"))
        .exchange()
        .expectStatus()
        .isNotFound()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON);
  }

  @Test
  void aTeamBecomesReadyOnceEveryMembersConversationIsEnsured() {
    String owner = TeamApi.newOwner("ready");
    UUID team = api.createTeam(owner, registeredPair(owner));

    Map<String, Object> settled = api.awaitSettled(owner, team);

    assertThat(settled.get("status")).isEqualTo("ready");
    assertThat(TeamApi.members(settled))
        .extracting(m -> m.get("provisioning"))
        .containsOnly("ensured");
    assertThat(TeamApi.members(settled))
        .extracting(m -> m.get("conversation_id"))
        .doesNotHaveDuplicates();
  }

  @Test
  void aTypoInAnAgentIdIsAnErrorNamingTheUnknownAgentAndWritesNothing() {
    String owner = TeamApi.newOwner("typo");
    Map<String, String> roster = registeredPair(owner);
    roster.put("reviewer", "agnet-c");

    web.post()
        .uri("/api/v1/teams")
        .header("Authorization", api.owner(owner))
        .bodyValue(TeamApi.teamBody("Typo team", roster))
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("unknown-agent")
        .jsonPath("$.agent_id")
        .isEqualTo("agnet-c")
        .jsonPath("$.member")
        .isEqualTo("reviewer");
    assertThat(teamsOf(owner)).isZero();
  }

  @Test
  void anotherOwnersAgentIsUnknownToo() {
    String owner = TeamApi.newOwner("borrower");
    String stranger = TeamApi.newOwner("lender");
    String strangersAgent = TeamApi.newAgentId("theirs");
    api.registerAgent(stranger, strangersAgent);
    Map<String, String> roster = registeredPair(owner);
    roster.put("borrowed", strangersAgent);

    web.post()
        .uri("/api/v1/teams")
        .header("Authorization", api.owner(owner))
        .bodyValue(TeamApi.teamBody("Borrowing team", roster))
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.agent_id")
        .isEqualTo(strangersAgent);
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
    String owner = TeamApi.newOwner("bob");
    var body = new HashMap<>(TeamApi.teamBody("n".repeat(81), registeredPair(owner)));
    web.post()
        .uri("/api/v1/teams")
        .header("Authorization", api.owner(owner))
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
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectBody()
        .jsonPath("$.length()")
        .isEqualTo(0);
    assertThat(teamsOf(owner)).isZero();
  }

  @Test
  void anOwnerHasAtMostTwentyTeamsAndTheTwentyFirstIsRejectedWhole() {
    String owner = TeamApi.newOwner("busy");
    Map<String, String> roster = registeredPair(owner);
    for (int i = 0; i < 20; i++) {
      api.createTeam(owner, roster);
    }
    web.post()
        .uri("/api/v1/teams")
        .header("Authorization", api.owner(owner))
        .bodyValue(TeamApi.teamBody("One too many", roster))
        .exchange()
        .expectStatus()
        .isEqualTo(422)
        .expectBody()
        .jsonPath("$.limit")
        .isEqualTo("team.max-teams-per-owner")
        .jsonPath("$.max")
        .isEqualTo(20);
    assertThat(teamsOf(owner)).isEqualTo(20);
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectBody()
        .jsonPath("$.length()")
        .isEqualTo(20);
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
        .isEqualTo("UP")
        // Which checks are up, never what they found (a data path, the Kafka cluster id).
        .jsonPath("$.components.kafka.details")
        .doesNotExist()
        .jsonPath("$.components.r2dbc.details")
        .doesNotExist();
    web.get()
        .uri("/actuator/health")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.components.kafka.details")
        .doesNotExist()
        .jsonPath("$.components.diskSpace.details")
        .doesNotExist();
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
    assertThat(metrics)
        .contains(
            "agentteams_outbox_published_total",
            "agentteams_team_provisioning_due",
            "service=\"team-service\"");
  }

  private long teamsOf(String owner) {
    return db.sql("SELECT count(*) AS n FROM team WHERE owner_id = :owner")
        .bind("owner", owner)
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }
}
