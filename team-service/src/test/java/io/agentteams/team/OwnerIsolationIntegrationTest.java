package io.agentteams.team;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.team.support.TeamApi;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Every endpoint checks ownership itself: another owner's resources, and a member token of another
 * team, are answered as not found (or as an empty list), and nothing of the victim changes.
 */
@TeamServiceTest
class OwnerIsolationIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;
  TeamApi api;
  String alice;
  String mallory;
  UUID aliceTeam;
  UUID malloryTeam;
  String aliceAgent;

  @BeforeEach
  void setUp() {
    api = new TeamApi(web, tokens);
    alice = TeamApi.newOwner("alice");
    mallory = TeamApi.newOwner("mallory");
    aliceAgent = TeamApi.newAgentId("alices");
    api.registerAgent(alice, aliceAgent);
    aliceTeam = api.createTeamWithPullAgents(alice, "lead", "writer");
    malloryTeam = api.createTeamWithPullAgents(mallory, "lead", "writer");
    api.awaitStatus(alice, aliceTeam, "ready");
    api.awaitStatus(mallory, malloryTeam, "ready");
    web.post()
        .uri("/api/v1/teams/{team}/state", aliceTeam)
        .header("Authorization", api.member(alice, aliceTeam, "lead"))
        .bodyValue(Map.of("request_id", "r", "kind", "plan", "title", "Plan", "content", "secret"))
        .exchange()
        .expectStatus()
        .isCreated();
  }

  @Test
  void anotherOwnerFindsNothingOfAlicesOnAnyEndpoint() {
    String asMallory = api.owner(mallory);
    Map<String, Object> before = api.team(alice, aliceTeam);

    notFound(HttpMethod.GET, "/api/v1/teams/" + aliceTeam, asMallory, null);
    notFound(HttpMethod.DELETE, "/api/v1/teams/" + aliceTeam, asMallory, null);
    notFound(HttpMethod.POST, "/api/v1/teams/" + aliceTeam + "/reconnect", asMallory, null);
    notFound(HttpMethod.GET, "/api/v1/teams/" + aliceTeam + "/state", asMallory, null);
    notFound(HttpMethod.GET, "/api/v1/teams/" + aliceTeam + "/state/1", asMallory, null);
    notFound(HttpMethod.GET, "/api/v1/agents/" + aliceAgent, asMallory, null);
    notFound(HttpMethod.PUT, "/api/v1/agents/" + aliceAgent, asMallory, Map.of("name", "Hijacked"));
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", asMallory)
        .exchange()
        .expectBody()
        .jsonPath("$[*].id")
        .value(ids -> assertThat((List<Object>) ids).containsExactly(malloryTeam.toString()));
    web.get()
        .uri("/api/v1/agents?q=alices")
        .header("Authorization", asMallory)
        .exchange()
        .expectBody()
        .jsonPath("$.items.length()")
        .isEqualTo(0);

    // Agent ids are scoped to their owner: Mallory's agent of the same id is her own.
    web.post()
        .uri("/api/v1/agents")
        .header("Authorization", asMallory)
        .bodyValue(Map.of("id", aliceAgent, "name", "Mallory's namesake"))
        .exchange()
        .expectStatus()
        .isCreated();

    Map<String, Object> after = api.team(alice, aliceTeam);
    assertThat(after).isEqualTo(before);
    web.get()
        .uri("/api/v1/agents/" + aliceAgent)
        .header("Authorization", api.owner(alice))
        .exchange()
        .expectBody()
        .jsonPath("$.name")
        .isEqualTo("Agent " + aliceAgent);
  }

  @Test
  void aMemberTokenOpensOnlyItsOwnTeam() {
    String malloryMember = api.member(mallory, malloryTeam, "lead");
    String forgedMember = api.member(mallory, aliceTeam, "lead");

    web.get()
        .uri("/api/v1/teams/{team}", malloryTeam)
        .header("Authorization", malloryMember)
        .exchange()
        .expectStatus()
        .isOk();
    for (String token : List.of(malloryMember, forgedMember)) {
      notFound(HttpMethod.GET, "/api/v1/teams/" + aliceTeam, token, null);
      notFound(HttpMethod.GET, "/api/v1/teams/" + aliceTeam + "/state", token, null);
      notFound(HttpMethod.GET, "/api/v1/teams/" + aliceTeam + "/state/1", token, null);
      notFound(
          HttpMethod.POST,
          "/api/v1/teams/" + aliceTeam + "/state",
          token,
          Map.of("request_id", "x", "kind", "plan", "title", "t", "content", "c"));
      notFound(
          HttpMethod.PUT,
          "/api/v1/teams/" + aliceTeam + "/state/1",
          token,
          Map.of("expected_revision", 1, "content", "overwritten"));
    }
    assertThat(
            db.sql("SELECT content FROM state_entry WHERE team_id = :team")
                .bind("team", aliceTeam)
                .map(row -> row.get("content", String.class))
                .all()
                .collectList()
                .block())
        .containsExactly("secret");
  }

  @Test
  void ownerOnlyEndpointsRefuseMembers() {
    String member = api.member(alice, aliceTeam, "lead");
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", member)
        .exchange()
        .expectStatus()
        .isForbidden();
    web.delete()
        .uri("/api/v1/teams/{team}", aliceTeam)
        .header("Authorization", member)
        .exchange()
        .expectStatus()
        .isForbidden();
    web.post()
        .uri("/api/v1/teams/{team}/reconnect", aliceTeam)
        .header("Authorization", member)
        .exchange()
        .expectStatus()
        .isForbidden();
    assertThat(api.team(alice, aliceTeam).get("status")).isEqualTo("ready");
  }

  private void notFound(HttpMethod method, String uri, String authorization, Object body) {
    WebTestClient.RequestBodySpec request =
        web.method(method).uri(uri).header("Authorization", authorization);
    WebTestClient.ResponseSpec response =
        body == null ? request.exchange() : request.bodyValue(body).exchange();
    response.expectStatus().isNotFound();
  }
}
