package io.agentteams.team;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.team.StateEntry;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.contracts.team.TeamStatePublished;
import io.agentteams.contracts.team.TeamStateUpdated;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.team.support.EventTape;
import io.agentteams.team.support.TeamApi;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A team's whole life, and every change in it emits exactly its events on Kafka, keyed by the team,
 * with a team revision that grows by one per event; retries, conflicts and rejections emit none.
 */
@TeamServiceTest
class TeamEventsIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;

  @Test
  void everyChangeEmitsExactlyTheExpectedEvents() {
    TeamApi api = new TeamApi(web, tokens);
    EventTape tape = EventTape.teamEvents();
    String owner = TeamApi.newOwner("events");
    UUID team = api.createTeamWithPullAgents(owner, "lead", "writer");
    api.awaitStatus(owner, team, "ready");
    String lead = api.member(owner, team, "lead");
    String writer = api.member(owner, team, "writer");

    post(
            lead,
            "/state",
            Map.of("request_id", "p1", "kind", "plan", "title", "Plan", "content", "v1"))
        .expectStatus()
        .isCreated();
    post(
            lead,
            "/state",
            Map.of("request_id", "p1", "kind", "plan", "title", "Plan", "content", "v1"))
        .expectStatus()
        .isOk();
    post(
            lead,
            "/state",
            Map.of("request_id", "p1", "kind", "plan", "title", "Plan", "content", "v2"))
        .expectStatus()
        .isEqualTo(409);
    post(
            lead,
            "/state",
            Map.of("request_id", "p2", "kind", "plan", "title", "t".repeat(81), "content", ""))
        .expectStatus()
        .isEqualTo(422);
    put(writer, Map.of("expected_revision", 1, "content", "v2")).expectStatus().isOk();
    put(writer, Map.of("expected_revision", 1, "content", "v2")).expectStatus().isOk();
    put(lead, Map.of("expected_revision", 1, "content", "v3")).expectStatus().isEqualTo(409);
    put(lead, Map.of("expected_revision", 2, "status", "archived")).expectStatus().isOk();
    web.post()
        .uri("/api/v1/teams/{team}/disconnect", team)
        .header("Authorization", api.service("scheduler-service"))
        .bodyValue(Map.of("reason", "ambiguous dispatch failure"))
        .exchange()
        .expectStatus()
        .isOk();
    web.post()
        .uri("/api/v1/teams/{team}/reconnect", team)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .is2xxSuccessful();
    api.awaitStatus(owner, team, "ready");
    web.delete()
        .uri("/api/v1/teams/{team}", team)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isNoContent();

    List<EventEnvelope> events = tape.awaitType(team, "TeamDeleted");

    assertThat(EventTape.types(events))
        .containsExactly(
            "TeamCreated",
            "MemberProvisioned",
            "MemberProvisioned",
            "TeamReady",
            "TeamStatePublished",
            "TeamStateUpdated",
            "TeamStateUpdated",
            "TeamDisconnected",
            "MemberProvisioned",
            "MemberProvisioned",
            "TeamReconnected",
            "TeamDeleted");
    assertThat(events)
        .extracting(EventEnvelope::sequence)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, 12).boxed().toList());
    assertThat(events).allSatisfy(e -> assertThat(e.teamId()).isEqualTo(team.toString()));
    assertThat(events).allSatisfy(e -> assertThat(e.ownerId()).isEqualTo(owner));
    assertThat(events).allSatisfy(e -> assertThat(e.producer()).isEqualTo("team-service"));
    TeamCreated created = tape.codec().data(events.get(0), TeamCreated.class);
    assertThat(created.members()).extracting(m -> m.name()).containsExactly("lead", "writer");
    assertThat(created.members()).allSatisfy(m -> assertThat(m.conversationId()).isNotBlank());
    StateEntry published = tape.codec().data(events.get(4), TeamStatePublished.class).entry();
    assertThat(published.content()).isEqualTo("v1");
    TeamStateUpdated archived = tape.codec().data(events.get(6), TeamStateUpdated.class);
    assertThat(archived.entry().status()).isEqualTo("archived");
    assertThat(archived.stateRevision()).isEqualTo(3);
    assertThat(archived.teamRevision()).isEqualTo(7);
  }

  private WebTestClient.ResponseSpec post(String authorization, String path, Map<String, ?> body) {
    return web.post()
        .uri(uri -> uri.path("/api/v1/teams/" + teamOf(authorization) + path).build())
        .header("Authorization", authorization)
        .bodyValue(body)
        .exchange();
  }

  private WebTestClient.ResponseSpec put(String authorization, Map<String, ?> body) {
    return web.put()
        .uri("/api/v1/teams/" + teamOf(authorization) + "/state/1")
        .header("Authorization", authorization)
        .bodyValue(body)
        .exchange();
  }

  private String teamOf(String authorization) {
    return ((io.agentteams.platform.identity.Caller.Member)
            tokens.verify(authorization.substring("Bearer ".length())))
        .teamId()
        .toString();
  }
}
