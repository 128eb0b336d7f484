package io.agentteams.team.tokens.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.token.TokensRevoked;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.team.TeamServiceTest;
import io.agentteams.team.support.EventTape;
import io.agentteams.team.support.TeamApi;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The token registry: the gateway records each token before handing it out; an owner lists them and
 * revokes one, an agent's or a member's; deleting an agent revokes its tokens; each revocation is
 * published for the gateways; another owner learns nothing (404) and changes nothing.
 */
@TeamServiceTest
class TokenRegistryIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;
  TeamApi api;
  String owner;

  @BeforeEach
  void setUp() {
    api = new TeamApi(web, tokens);
    owner = TeamApi.newOwner("revoker");
  }

  @Test
  void anOwnerListsAndRevokesTheirTokensOneByAgentAndByMemberAndEachRevocationIsPublished() {
    String agent = TeamApi.newAgentId("worker");
    api.registerAgent(owner, agent);
    String spare = TeamApi.newAgentId("spare");
    api.registerAgent(owner, spare);
    UUID team = api.createTeam(owner, Map.of("lead", agent, "helper", spare));
    UUID first = record(owner, "worker", agent, null, null);
    UUID second = record(owner, "worker", agent, null, null);
    UUID memberToken = record(owner, "member", null, team, "lead");
    // A worker refreshes its own agent's token; another agent's it cannot record.
    record(new Caller.Worker(owner, agent), "worker", agent, null, null, 201);
    record(new Caller.Worker(owner, agent), "worker", spare, null, null, 404);

    assertThat(ids(list(owner, "?agent_id=" + agent))).contains(first, second).hasSize(3);
    assertThat(ids(list(owner, "?team_id=" + team + "&member=lead"))).containsExactly(memberToken);

    String mallory = TeamApi.newOwner("mallory");
    // Another owner: its tokens, agents and teams are not found, and nothing is revoked.
    web.delete()
        .uri("/api/v1/tokens/{id}", first)
        .header("Authorization", api.owner(mallory))
        .exchange()
        .expectStatus()
        .isNotFound();
    revokeAll(mallory, "agent_id=" + agent).expectStatus().isNotFound();
    revokeAll(mallory, "team_id=" + team + "&member=lead").expectStatus().isNotFound();
    web.get()
        .uri("/api/v1/tokens?agent_id=" + agent)
        .header("Authorization", api.owner(mallory))
        .exchange()
        .expectStatus()
        .isNotFound();
    assertThat(list(owner, "")).allSatisfy(t -> assertThat(t.get("revoked_at")).isNull());

    web.delete()
        .uri("/api/v1/tokens/{id}", first)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isNoContent();
    awaitRevoked(owner, first);

    revokeAll(owner, "team_id=" + team + "&member=lead")
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.revoked")
        .isEqualTo(1);
    revokeAll(owner, "agent_id=" + agent)
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.revoked")
        .isEqualTo(2);
    assertThat(list(owner, "")).allSatisfy(t -> assertThat(t.get("revoked_at")).isNotNull());
    List<UUID> agentTokens = ids(list(owner, "?agent_id=" + agent));
    List<UUID> all = new ArrayList<>(agentTokens);
    all.add(memberToken);
    awaitRevoked(owner, all.toArray(UUID[]::new));

    // Neither both subjects nor none.
    revokeAll(owner, "agent_id=" + agent + "&member=lead")
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("invalid-revocation");
  }

  @Test
  void deletingAnAgentRevokesItsTokens() {
    String agent = TeamApi.newAgentId("leaving");
    api.registerAgent(owner, agent);
    UUID token = record(owner, "worker", agent, null, null);

    web.delete()
        .uri("/api/v1/agents/{id}", agent)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isNoContent();

    awaitRevoked(owner, token);
  }

  private UUID record(String ownerId, String kind, String agentId, UUID teamId, String member) {
    return record(new Caller.Owner(ownerId), kind, agentId, teamId, member, 201);
  }

  private UUID record(
      Caller caller, String kind, String agentId, UUID teamId, String member, int status) {
    UUID id = UUID.randomUUID();
    Instant now = Instant.now();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", id.toString());
    body.put("kind", kind);
    body.put("agent_id", agentId);
    body.put("team_id", teamId == null ? null : teamId.toString());
    body.put("member", member);
    body.put("issued_at", now.toString());
    body.put("expires_at", now.plus(Duration.ofHours(1)).toString());
    web.post()
        .uri("/api/internal/v1/tokens")
        .header("Authorization", "Bearer " + tokens.issue(caller, Duration.ofMinutes(5)))
        .bodyValue(body)
        .exchange()
        .expectStatus()
        .isEqualTo(status);
    return id;
  }

  private List<Map<String, Object>> list(String ownerId, String query) {
    Map<String, List<Map<String, Object>>> answer =
        web.get()
            .uri("/api/v1/tokens" + query)
            .header("Authorization", api.owner(ownerId))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(new ParameterizedTypeReference<Map<String, List<Map<String, Object>>>>() {})
            .returnResult()
            .getResponseBody();
    return answer.get("tokens");
  }

  private static List<UUID> ids(List<Map<String, Object>> tokens) {
    return tokens.stream().map(t -> UUID.fromString((String) t.get("id"))).toList();
  }

  private WebTestClient.ResponseSpec revokeAll(String ownerId, String query) {
    return web.delete()
        .uri("/api/v1/tokens?" + query)
        .header("Authorization", api.owner(ownerId))
        .exchange();
  }

  /** Waits until the revocation topic carries exactly these of the owner's tokens. */
  private static void awaitRevoked(String ownerId, UUID... expected) {
    EventTape tape = EventTape.tokenRevocations();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              List<String> ids = new ArrayList<>();
              for (EventEnvelope event : tape.of(TokensRevoked.key(ownerId))) {
                tape.codec()
                    .data(event, TokensRevoked.class)
                    .tokens()
                    .forEach(t -> ids.add(t.id()));
              }
              assertThat(ids)
                  .containsExactlyInAnyOrder(
                      java.util.Arrays.stream(expected).map(UUID::toString).toArray(String[]::new));
            });
  }
}
