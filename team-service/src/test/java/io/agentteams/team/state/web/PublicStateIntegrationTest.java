package io.agentteams.team.state.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.team.StateEntry;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.team.TeamServiceTest;
import io.agentteams.team.state.domain.EntryJson;
import io.agentteams.team.support.EventTape;
import io.agentteams.team.support.ScriptedRuntime;
import io.agentteams.team.support.TeamApi;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

@TeamServiceTest
class PublicStateIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;
  @Autowired ScriptedRuntime runtime;

  TeamApi api;
  EventTape tape;
  String owner;
  UUID team;
  ExecutorService pool = Executors.newFixedThreadPool(10);

  @BeforeEach
  void setUp() {
    api = new TeamApi(web, tokens);
    tape = EventTape.teamEvents();
    owner = TeamApi.newOwner("state");
    team = api.createTeamWithPullAgents(owner, "lead", "writer", "critic");
    api.awaitStatus(owner, team, "ready");
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  @Test
  void membersPublishUpdateAndArchiveWhileAuthorTimeAndSourceComeFromTheCaller() {
    UUID job = UUID.randomUUID();
    Map<String, Object> body = new HashMap<>(publishBody("r1", "Ship the report"));
    body.put("created_by", "mallory");
    body.put("updated_by", "mallory");
    body.put("source_conversation_id", "forged-conversation");
    body.put("created_at", "1999-01-01T00:00:00.000Z");
    String leadConversation = conversationOf("lead");

    publish(api.member(owner, team, "lead", job), body)
        .expectStatus()
        .isCreated()
        .expectBody()
        .jsonPath("$.created")
        .isEqualTo(true)
        .jsonPath("$.state_revision")
        .isEqualTo(1)
        .jsonPath("$.entry.id")
        .isEqualTo(1)
        .jsonPath("$.entry.created_by")
        .isEqualTo("lead")
        .jsonPath("$.entry.updated_by")
        .isEqualTo("lead")
        .jsonPath("$.entry.source_conversation_id")
        .isEqualTo(leadConversation)
        .jsonPath("$.entry.source_job_id")
        .isEqualTo(job.toString());

    Map<String, Object> update = new HashMap<>();
    update.put("expected_revision", 1);
    update.put("content", "Ship it on Friday");
    update.put("updated_by", "mallory");
    update(api.member(owner, team, "writer"), 1, update)
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.updated")
        .isEqualTo(true)
        .jsonPath("$.conflict")
        .isEqualTo(false)
        .jsonPath("$.entry.revision")
        .isEqualTo(2)
        .jsonPath("$.entry.created_by")
        .isEqualTo("lead")
        .jsonPath("$.entry.updated_by")
        .isEqualTo("writer")
        .jsonPath("$.entry.source_conversation_id")
        .isEqualTo(conversationOf("writer"))
        .jsonPath("$.entry.source_job_id")
        .isEmpty()
        .jsonPath("$.state_revision")
        .isEqualTo(2);

    update(
            api.member(owner, team, "critic"),
            1,
            Map.of("expected_revision", 2, "status", "archived"))
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.entry.status")
        .isEqualTo("archived");

    read(api.owner(owner), "")
        .expectBody()
        .jsonPath("$.state_revision")
        .isEqualTo(3)
        .jsonPath("$.entries.length()")
        .isEqualTo(0);
    read(api.owner(owner), "?include_archived=true")
        .expectBody()
        .jsonPath("$.entries[0].status")
        .isEqualTo("archived")
        .jsonPath("$.entries[0].content")
        .isEqualTo("Ship it on Friday");
    web.get()
        .uri("/api/v1/teams/{team}/state/1", team)
        .header("Authorization", api.member(owner, team, "critic"))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.entry.revision")
        .isEqualTo(3)
        .jsonPath("$.state_revision")
        .isEqualTo(3);

    List<EventEnvelope> events = tape.awaitUntil(team, e -> e.size() >= 8);
    assertThat(EventTape.types(events).subList(5, 8))
        .containsExactly("TeamStatePublished", "TeamStateUpdated", "TeamStateUpdated");
  }

  @Test
  void readsFilterByEntryIdKindAndLiteralCaseInsensitiveQuery() {
    String lead = api.member(owner, team, "lead");
    publish(
        lead,
        Map.of(
            "request_id", "a", "kind", "objective", "title", "Ship the REPORT", "content", "soon"));
    publish(
        lead,
        Map.of("request_id", "b", "kind", "question", "title", "Sources?", "content", "cost 5.*%"));
    publish(
        lead,
        Map.of("request_id", "c", "kind", "plan", "title", "Plan", "content", "report first"));

    assertThat(ids(read(lead, "?kind=question"))).containsExactly(2);
    assertThat(ids(read(lead, "?query=report"))).containsExactly(1, 3);
    assertThat(ids(read(lead, "?query=5.*"))).containsExactly(2);
    assertThat(ids(read(lead, "?query=r.port"))).isEmpty();
    assertThat(ids(read(lead, "?entry_id=3"))).containsExactly(3);
    assertThat(ids(read(lead, "?entry_id=3&kind=objective"))).isEmpty();
    read(lead, "?kind=opinion").expectStatus().isBadRequest();
  }

  @Test
  void theJsonReadersReceiveIsExactlyWhatTheByteLimitMeasures() {
    String lead = api.member(owner, team, "lead");
    publish(
        lead,
        Map.of(
            "request_id", "u",
            "kind", "finding",
            "title", "中文 \"quoted\" 😀",
            "content", "line\nbreak\ttab \\ back/slash \u0001 é"));
    publish(lead, publishBody("v", "plain"));

    EntityExchangeResult<byte[]> response =
        read(lead, "?include_archived=true").expectBody().returnResult();
    String body = new String(response.getResponseBody(), StandardCharsets.UTF_8);
    JsonNode tree = tape.codec().mapper().readTree(body);
    List<StateEntry> entries = new ArrayList<>();
    for (JsonNode entry : tree.get("entries")) {
      entries.add(tape.codec().mapper().treeToValue(entry, StateEntry.class));
    }

    String expected =
        "{\"state_revision\":2,\"entries\":["
            + entries.stream().map(EntryJson::write).collect(Collectors.joining(","))
            + "]}";
    assertThat(body).isEqualTo(expected);
    assertThat(
            body.getBytes(StandardCharsets.UTF_8).length
                - "{\"state_revision\":2,\"entries\":}".length())
        .isEqualTo(EntryJson.arrayBytes(entries));
  }

  @Test
  void concurrentUpdatesOfOneEntryFromTwoMembersLetExactlyOneWin() throws Exception {
    String lead = api.member(owner, team, "lead");
    for (int round = 1; round <= 5; round++) {
      publish(lead, publishBody("r" + round, "draft " + round));
      long entry = round;
      CyclicBarrier start = new CyclicBarrier(2);
      Future<Map<String, Object>> writer =
          pool.submit(racer(start, "writer", entry, "writer's version"));
      Future<Map<String, Object>> critic =
          pool.submit(racer(start, "critic", entry, "critic's version"));
      List<Map<String, Object>> outcomes =
          List.of(writer.get(30, TimeUnit.SECONDS), critic.get(30, TimeUnit.SECONDS));

      assertThat(outcomes).extracting(o -> o.get("http")).containsExactlyInAnyOrder(200, 409);
      Map<String, Object> won =
          outcomes.stream().filter(o -> o.get("http").equals(200)).findFirst().orElseThrow();
      Map<String, Object> lost =
          outcomes.stream().filter(o -> o.get("http").equals(409)).findFirst().orElseThrow();
      assertThat(won.get("updated")).isEqualTo(true);
      assertThat(lost.get("updated")).isEqualTo(false);
      assertThat(lost.get("conflict")).isEqualTo(true);
      @SuppressWarnings("unchecked")
      Map<String, Object> current = (Map<String, Object>) lost.get("entry");
      @SuppressWarnings("unchecked")
      Map<String, Object> winner = (Map<String, Object>) won.get("entry");
      assertThat(current).isEqualTo(winner);
      assertThat(current.get("revision")).isEqualTo(2);
    }
    assertThat(entryCount()).isEqualTo(5);
    List<EventEnvelope> events = tape.awaitUntil(team, e -> e.size() >= 4 + 10);
    assertThat(EventTape.types(events).stream().filter(t -> t.equals("TeamStateUpdated")))
        .hasSize(5);
  }

  private Callable<Map<String, Object>> racer(
      CyclicBarrier start, String member, long entry, String content) {
    String token = api.member(owner, team, member);
    return () -> {
      start.await(10, TimeUnit.SECONDS);
      var result =
          update(token, entry, Map.of("expected_revision", 1, "content", content))
              .expectBody(Map.class)
              .returnResult();
      @SuppressWarnings("unchecked")
      Map<String, Object> body = new HashMap<>(result.getResponseBody());
      body.put("http", result.getStatus().value());
      return body;
    };
  }

  @Test
  void aPublishRetriedTenTimesConcurrentlyYieldsOneEntry() throws Exception {
    String writer = api.member(owner, team, "writer");
    CyclicBarrier start = new CyclicBarrier(10);
    List<Future<EntityExchangeResult<Map>>> calls = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      calls.add(
          pool.submit(
              () -> {
                start.await(10, TimeUnit.SECONDS);
                return publish(writer, publishBody("same-request", "one finding"))
                    .expectBody(Map.class)
                    .returnResult();
              }));
    }
    List<Integer> statuses = new ArrayList<>();
    List<Object> entryIds = new ArrayList<>();
    for (var call : calls) {
      var result = call.get(30, TimeUnit.SECONDS);
      statuses.add(result.getStatus().value());
      entryIds.add(((Map<?, ?>) result.getResponseBody().get("entry")).get("id"));
    }

    assertThat(statuses).containsOnly(200, 201);
    assertThat(statuses.stream().filter(s -> s == 201)).hasSize(1);
    assertThat(entryIds).containsOnly(1);
    assertThat(entryCount()).isEqualTo(1);
    assertThat(stateRevision()).isEqualTo(1);
    List<EventEnvelope> events = tape.awaitType(team, "TeamStatePublished");
    assertThat(EventTape.types(events).stream().filter(t -> t.equals("TeamStatePublished")))
        .hasSize(1);

    publish(writer, publishBody("same-request", "a different finding"))
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("request-id-reused");
  }

  @Test
  void textBeyondItsLimitsIsRejectedWholeWithNothingWritten() {
    String lead = api.member(owner, team, "lead");
    publish(lead, publishBody("first", "x")).expectStatus().isCreated();
    Snapshot before = snapshot();

    rejected(
        publish(
            lead,
            Map.of("request_id", "t", "kind", "plan", "title", "中".repeat(54), "content", "c")),
        "state.title.max-bytes");
    rejected(
        publish(
            lead,
            Map.of("request_id", "c", "kind", "plan", "title", "t", "content", "a".repeat(1001))),
        "state.content.max-chars");
    rejected(
        update(lead, 1, Map.of("expected_revision", 1, "content", "😀".repeat(501))),
        "state.content.max-bytes");
    publish(lead, Map.of("request_id", "s", "kind", "plan", "title", "t", "content", "bad \uD83D"))
        .expectStatus()
        .isBadRequest();
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void aWriteThatWouldTakeAllEntriesJsonPast16000BytesIsRejectedWhole() {
    String lead = api.member(owner, team, "lead");
    publish(lead, publishBody("first", "x")).expectStatus().isCreated();
    Snapshot full;
    int fill = 0;
    while (true) {
      full = snapshot();
      EntityExchangeResult<Map> result =
          publish(lead, publishBody("fill-" + fill, "a".repeat(1000)))
              .expectBody(Map.class)
              .returnResult();
      if (result.getStatus().value() == 422) {
        assertThat(result.getResponseBody().get("limit")).isEqualTo("state.max-total-json-bytes");
        assertThat(((Number) result.getResponseBody().get("actual")).intValue())
            .isGreaterThan(16_000);
        break;
      }
      assertThat(result.getStatus().value()).isEqualTo(201);
      fill++;
      assertThat(fill).as("the byte limit binds before the entry limit").isLessThan(19);
    }
    assertThat(snapshot()).isEqualTo(full);

    rejected(
        update(lead, 1, Map.of("expected_revision", 1, "content", "😀".repeat(500))),
        "state.max-total-json-bytes");
    assertThat(snapshot()).isEqualTo(full);
    read(lead, "?entry_id=1").expectBody().jsonPath("$.entries[0].content").isEqualTo("x");
  }

  @Test
  void aTeamHoldsAtMostTwentyEntriesArchivedOnesIncluded() {
    String lead = api.member(owner, team, "lead");
    for (int i = 1; i <= 20; i++) {
      publish(lead, publishBody("small-" + i, "s")).expectStatus().isCreated();
    }
    update(lead, 20, Map.of("expected_revision", 1, "status", "archived")).expectStatus().isOk();
    Snapshot twenty = snapshot();

    rejected(publish(lead, publishBody("small-21", "s")), "state.max-entries");

    assertThat(snapshot()).isEqualTo(twenty);
    publish(lead, publishBody("small-20", "s")).expectStatus().isOk();
  }

  @Test
  void theTeamsOwnerPublishesAndUpdatesAsOwnerWithNoSourceConversation() {
    String ownerToken = api.owner(owner);
    publish(
            ownerToken,
            Map.of(
                "request_id", "console-1",
                "kind", "requirement",
                "title", "Cite every source",
                "content", "Links, not summaries",
                "created_by", "mallory",
                "source_conversation_id", "forged-conversation"))
        .expectStatus()
        .isCreated()
        .expectBody()
        .jsonPath("$.created")
        .isEqualTo(true)
        .jsonPath("$.state_revision")
        .isEqualTo(1)
        .jsonPath("$.entry.kind")
        .isEqualTo("requirement")
        .jsonPath("$.entry.created_by")
        .isEqualTo("owner")
        .jsonPath("$.entry.updated_by")
        .isEqualTo("owner")
        .jsonPath("$.entry.source_conversation_id")
        .isEqualTo("")
        .jsonPath("$.entry.source_job_id")
        .isEmpty();
    // A retry of the same publish is answered with the entry it made, as for a member.
    publish(
            ownerToken,
            Map.of(
                "request_id", "console-1",
                "kind", "requirement",
                "title", "Cite every source",
                "content", "Links, not summaries"))
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.created")
        .isEqualTo(false)
        .jsonPath("$.entry.id")
        .isEqualTo(1);

    // A member edits the owner's entry, and the owner edits it back with compare-and-set.
    update(api.member(owner, team, "writer"), 1, Map.of("expected_revision", 1, "content", "Links"))
        .expectStatus()
        .isOk();
    update(ownerToken, 1, Map.of("expected_revision", 1, "content", "stale"))
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.conflict")
        .isEqualTo(true)
        .jsonPath("$.entry.content")
        .isEqualTo("Links");
    update(ownerToken, 1, Map.of("expected_revision", 2, "content", "Links and quotes"))
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.entry.revision")
        .isEqualTo(3)
        .jsonPath("$.entry.created_by")
        .isEqualTo("owner")
        .jsonPath("$.entry.updated_by")
        .isEqualTo("owner")
        .jsonPath("$.entry.source_conversation_id")
        .isEqualTo("");

    List<EventEnvelope> events = tape.awaitUntil(team, e -> e.size() >= 8);
    assertThat(EventTape.types(events).subList(5, 8))
        .containsExactly("TeamStatePublished", "TeamStateUpdated", "TeamStateUpdated");
    assertThat(events.get(5).data().path("entry").path("created_by").asString()).isEqualTo("owner");
  }

  @Test
  void anotherOwnerFindsNoTeamToWriteAsForATeamThatDoesNotExist() {
    publish(api.member(owner, team, "lead"), publishBody("m", "x")).expectStatus().isCreated();
    Snapshot before = snapshot();
    String mallory = api.owner(TeamApi.newOwner("mallory"));

    publish(mallory, publishBody("o", "x"), UUID.randomUUID())
        .expectStatus()
        .isNotFound()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("team-not-found");
    publish(mallory, publishBody("o", "x"))
        .expectStatus()
        .isNotFound()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("team-not-found");
    update(mallory, 1, Map.of("expected_revision", 1, "content", "mine"))
        .expectStatus()
        .isNotFound()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("team-not-found");
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void theOwnersPublishWithABadKindOrTitleIsRefusedNamingTheFieldWithNothingWritten() {
    Snapshot before = snapshot();
    String ownerToken = api.owner(owner);

    publish(ownerToken, Map.of("request_id", "k", "kind", "opinion", "title", "t", "content", "c"))
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("invalid-entry-kind")
        .jsonPath("$.kind")
        .isEqualTo("opinion")
        .jsonPath("$.detail")
        .value(detail -> assertThat((String) detail).startsWith("kind 'opinion' must be one of"));
    publish(ownerToken, Map.of("request_id", "b", "kind", "plan", "title", " ", "content", "c"))
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("blank-field")
        .jsonPath("$.detail")
        .isEqualTo("state.title must not be blank");
    rejected(
        publish(
            ownerToken,
            Map.of("request_id", "l", "kind", "plan", "title", "t", "content", "a".repeat(1001))),
        "state.content.max-chars");

    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void onlyTheOwnerAndMembersOfAnActiveTeamWrite() {
    publish(api.service("scheduler-service"), publishBody("o", "x"))
        .expectStatus()
        .isForbidden()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("wrong-caller-kind");
    publish(api.member(owner, team, "stranger"), publishBody("o", "x"))
        .expectStatus()
        .isForbidden()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("not-a-member");

    String agent = TeamApi.newAgentId("down");
    api.registerAgent(owner, agent, "webhook", "https://down.example");
    runtime.failNext(agent, 1000);
    String other = TeamApi.newAgentId("up");
    api.registerAgent(owner, other);
    UUID notReady =
        api.createTeam(
            owner, new java.util.LinkedHashMap<>(Map.of("lead", agent, "writer", other)));
    publish(api.member(owner, notReady, "lead"), publishBody("o", "x"), notReady)
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("team-not-active");
    publish(api.owner(owner), publishBody("o", "x"), notReady)
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("team-not-active");
  }

  // --- helpers

  private record Snapshot(long entries, long stateRevision, long teamRevision, long outboxRows) {}

  private Snapshot snapshot() {
    return new Snapshot(
        entryCount(),
        stateRevision(),
        db.sql("SELECT revision FROM team WHERE id = :team")
            .bind("team", team)
            .map(row -> row.get("revision", Long.class))
            .one()
            .block(),
        db.sql("SELECT count(*) AS n FROM platform.outbox WHERE message_key = :key")
            .bind("key", team.toString())
            .map(row -> row.get("n", Long.class))
            .one()
            .block());
  }

  private static void rejected(WebTestClient.ResponseSpec response, String limit) {
    response.expectStatus().isEqualTo(422).expectBody().jsonPath("$.limit").isEqualTo(limit);
  }

  private static Map<String, Object> publishBody(String requestId, String content) {
    return Map.of(
        "request_id", requestId, "kind", "finding", "title", "Finding", "content", content);
  }

  private WebTestClient.ResponseSpec publish(String authorization, Map<String, ?> body) {
    return publish(authorization, body, team);
  }

  private WebTestClient.ResponseSpec publish(
      String authorization, Map<String, ?> body, UUID teamId) {
    return web.post()
        .uri("/api/v1/teams/{team}/state", teamId)
        .header("Authorization", authorization)
        .bodyValue(body)
        .exchange();
  }

  private WebTestClient.ResponseSpec update(String authorization, long entry, Map<String, ?> body) {
    return web.put()
        .uri("/api/v1/teams/{team}/state/{entry}", team, entry)
        .header("Authorization", authorization)
        .bodyValue(body)
        .exchange();
  }

  private WebTestClient.ResponseSpec read(String authorization, String query) {
    return web.get()
        .uri("/api/v1/teams/" + team + "/state" + query)
        .header("Authorization", authorization)
        .exchange();
  }

  @SuppressWarnings("unchecked")
  private static List<Integer> ids(WebTestClient.ResponseSpec response) {
    Map<String, Object> body =
        response.expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
    return ((List<Map<String, Object>>) body.get("entries"))
        .stream().map(e -> (Integer) e.get("id")).toList();
  }

  private String conversationOf(String member) {
    return TeamApi.members(api.team(owner, team)).stream()
        .filter(m -> m.get("name").equals(member))
        .map(m -> (String) m.get("conversation_id"))
        .findFirst()
        .orElseThrow();
  }

  private long entryCount() {
    return db.sql("SELECT count(*) AS n FROM state_entry WHERE team_id = :team")
        .bind("team", team)
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  private long stateRevision() {
    return db.sql("SELECT state_revision FROM team WHERE id = :team")
        .bind("team", team)
        .map(row -> row.get("state_revision", Long.class))
        .one()
        .block();
  }
}
