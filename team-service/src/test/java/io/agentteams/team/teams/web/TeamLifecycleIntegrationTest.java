package io.agentteams.team.teams.web;

import static io.agentteams.team.support.EventTape.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.team.MemberProvisioned;
import io.agentteams.contracts.team.TeamReconnected;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.team.TeamServiceTest;
import io.agentteams.team.jobs.messaging.SchedulerJobSubscription;
import io.agentteams.team.state.persistence.StateStore;
import io.agentteams.team.support.EventTape;
import io.agentteams.team.support.SchedulerEvents;
import io.agentteams.team.support.ScriptedRuntime;
import io.agentteams.team.support.TeamApi;
import io.agentteams.team.teams.TeamProperties;
import io.agentteams.team.teams.application.TeamTombstones;
import io.agentteams.team.teams.persistence.TeamStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Sinks;

@TeamServiceTest
class TeamLifecycleIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;
  @Autowired ScriptedRuntime runtime;
  @Autowired TeamTombstones tombstones;
  @Autowired TeamProperties properties;
  @Autowired MeterRegistry meters;
  @Autowired TransactionalOperator transactions;
  @Autowired StateStore stateStore;
  @Autowired TeamStore teamStore;

  TeamApi api;
  EventTape tape;
  SchedulerEvents scheduler;
  String owner;

  @BeforeEach
  void setUp() {
    api = new TeamApi(web, tokens);
    tape = EventTape.teamEvents();
    scheduler = new SchedulerEvents();
    owner = TeamApi.newOwner("life");
  }

  @AfterEach
  void tearDown() {
    scheduler.close();
  }

  @Test
  void deleteIsRefusedWhileTheSchedulerReportsQueuedRunningOrWaitingJobs() {
    UUID team = api.createTeamWithPullAgents(owner, "lead", "writer");
    api.awaitStatus(owner, team, "ready");
    UUID other = api.createTeamWithPullAgents(owner, "lead", "writer");
    applied(scheduler.jobState(owner, other, "job-of-the-other-team", "running", 1));

    for (String state : List.of("queued", "admitted", "running", "waiting_input", "unknown")) {
      long revision =
          List.of("queued", "admitted", "running", "waiting_input", "unknown").indexOf(state) + 1;
      applied(scheduler.jobState(owner, team, "job-1", state, revision));
      refusedWithUnfinishedJobs(team, 1);
    }
    applied(scheduler.jobState(owner, team, "job-2", "queued", 1));
    refusedWithUnfinishedJobs(team, 2);

    applied(scheduler.jobState(owner, team, "job-1", "completed", 6));
    applied(scheduler.jobState(owner, team, "job-2", "cancelled", 2));
    // A stale event (an older revision, delivered late) does not bring a finished job back.
    applied(scheduler.jobState(owner, team, "job-1", "running", 3));

    delete(team).expectStatus().isNoContent();

    web.get()
        .uri("/api/v1/teams/{id}", team)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isNotFound();
    delete(team).expectStatus().isNotFound();
    assertThat(count("SELECT count(*) AS n FROM team_member WHERE team_id = :team", team)).isZero();
    assertThat(count("SELECT count(*) AS n FROM scheduler_job WHERE team_id = :team", team))
        .isZero();
    List<EventEnvelope> events = tape.awaitType(team, "TeamDeleted");
    assertThat(types(events)).endsWith("TeamReady", "TeamDeleted");
    // The other team's running job still blocks the other team.
    refusedWithUnfinishedJobs(other, 1);
  }

  @Test
  void aJobEventDoesNotWaitBehindAStateWriteButDoesBehindTheTeamsDeletion() {
    UUID team = api.createTeamWithPullAgents(owner, "lead", "writer");
    api.awaitStatus(owner, team, "ready");

    // A state write holds the team row until its transaction ends.
    Sinks.Empty<Void> endWrite = Sinks.empty();
    AtomicBoolean writing = new AtomicBoolean();
    var write =
        transactions
            .transactional(
                stateStore
                    .lockTeam(team)
                    .doOnNext(header -> writing.set(true))
                    .then(endWrite.asMono()))
            .subscribe();
    await().atMost(Duration.ofSeconds(30)).untilTrue(writing);
    try {
      applied(scheduler.jobState(owner, team, "job-beside-a-write", "queued", 1));
    } finally {
      endWrite.tryEmitEmpty();
      write.dispose();
    }

    // A deletion's lock holds the event back until the deletion's transaction ends.
    Sinks.Empty<Void> endDelete = Sinks.empty();
    AtomicBoolean deleting = new AtomicBoolean();
    var deletion =
        transactions
            .transactional(
                teamStore.lock(team).doOnNext(t -> deleting.set(true)).then(endDelete.asMono()))
            .subscribe();
    await().atMost(Duration.ofSeconds(30)).untilTrue(deleting);
    UUID heldBack = scheduler.jobState(owner, team, "job-behind-a-delete", "queued", 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> waitingForALockOn("scheduler_job"));
    endDelete.tryEmitEmpty();
    deletion.dispose();
    applied(heldBack);
    assertThat(count("SELECT count(*) AS n FROM scheduler_job WHERE team_id = :team", team))
        .isEqualTo(2);
  }

  /** Whether a session of this database waits for a row lock in a statement naming the table. */
  private boolean waitingForALockOn(String table) {
    return db.sql(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND wait_event_type = 'Lock' AND query LIKE :pattern")
            .bind("pattern", "%" + table + "%")
            .map(row -> row.get("n", Long.class))
            .one()
            .block()
        > 0;
  }

  @Test
  void aDeletedTeamFreesItsSlotAndEventsForItAreIgnored() {
    UUID team = api.createTeamWithPullAgents(owner, "lead", "writer");
    api.awaitStatus(owner, team, "ready");
    delete(team).expectStatus().isNoContent();

    applied(scheduler.jobState(owner, team, "late-job", "queued", 1));

    assertThat(count("SELECT count(*) AS n FROM scheduler_job WHERE team_id = :team", team))
        .isZero();
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectBody()
        .jsonPath("$.length()")
        .isEqualTo(0);
  }

  @Test
  void aDeletedTeamsRowIsPurgedAfterItsRetentionAndARecentOneIsKept() {
    UUID old = api.createTeamWithPullAgents(owner, "lead", "writer");
    UUID recent = api.createTeamWithPullAgents(owner, "lead", "writer");
    api.awaitStatus(owner, old, "ready");
    api.awaitStatus(owner, recent, "ready");
    delete(old).expectStatus().isNoContent();
    delete(recent).expectStatus().isNoContent();
    // The first one was deleted longer ago than the retention.
    db.sql("UPDATE team SET updated_at = now() - make_interval(secs => :age) WHERE id = :team")
        .bind("age", (double) properties.tombstoneRetention().plusHours(1).toSeconds())
        .bind("team", old)
        .fetch()
        .rowsUpdated()
        .block();
    double purgedBefore = meters.counter("agentteams.team.tombstones.purged").count();

    assertThat(tombstones.purgeOnce().block()).isGreaterThanOrEqualTo(1);

    assertThat(count("SELECT count(*) AS n FROM team WHERE id = :team", old)).isZero();
    assertThat(count("SELECT count(*) AS n FROM team WHERE id = :team", recent)).isOne();
    assertThat(meters.counter("agentteams.team.tombstones.purged").count())
        .isGreaterThanOrEqualTo(purgedBefore + 1);
    // Purged or kept, a deleted team is simply not found, and deleting it again changes nothing.
    for (UUID team : List.of(old, recent)) {
      delete(team).expectStatus().isNotFound();
    }
  }

  @Test
  void theSchedulerDisconnectsAReadyTeamAndOnlyAServiceMayDoSo() {
    UUID team = api.createTeamWithPullAgents(owner, "lead", "writer");
    api.awaitStatus(owner, team, "ready");

    disconnect(team, api.owner(owner)).expectStatus().isForbidden();
    disconnect(team, api.member(owner, team, "lead")).expectStatus().isForbidden();
    disconnect(team, api.service("scheduler-service"))
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.status")
        .isEqualTo("disconnected")
        .jsonPath("$.status_reason")
        .isEqualTo("dispatch target revoked access");

    List<EventEnvelope> events = tape.awaitType(team, "TeamDisconnected");
    assertThat(types(events)).endsWith("TeamReady", "TeamDisconnected");
  }

  @Test
  void reconnectRecreatesMissingConversationsWithTheirRecordedBindingAndLeavesTheOthers() {
    Map<String, String> roster = webhookRoster("lead", "writer", "critic");
    UUID team = api.createTeam(owner, roster);
    Map<String, Object> ready = api.awaitStatus(owner, team, "ready");
    Map<String, String> conversations = conversations(ready);
    // The catalog changes after the members were bound; a reconnect uses the recorded binding.
    replaceWithPull(roster.get("writer"));
    disconnect(team, api.service("scheduler-service")).expectStatus().isOk();
    runtime.lose(conversations.get("writer"));

    reconnect(team).expectStatus().isAccepted();
    Map<String, Object> reconnected = api.awaitStatus(owner, team, "ready");

    assertThat(conversations(reconnected)).isEqualTo(conversations);
    assertThat(TeamApi.members(reconnected))
        .extracting(m -> m.get("runtime_kind"))
        .containsOnly("webhook");
    assertThat(runtime.holds(conversations.get("writer"))).isTrue();
    assertThat(runtime.creations(conversations.get("writer"))).isEqualTo(2);
    assertThat(runtime.creations(conversations.get("lead"))).isEqualTo(1);
    assertThat(runtime.creations(conversations.get("critic"))).isEqualTo(1);
    List<EventEnvelope> events = tape.awaitType(team, "TeamReconnected");
    assertThat(types(events))
        .containsExactly(
            "TeamCreated",
            "MemberProvisioned",
            "MemberProvisioned",
            "MemberProvisioned",
            "TeamReady",
            "TeamDisconnected",
            "MemberProvisioned",
            "MemberProvisioned",
            "MemberProvisioned",
            "TeamReconnected");
    assertThat(tape.codec().data(events.get(9), TeamReconnected.class).recreatedMembers())
        .containsExactly("writer");
    assertThat(
            events.subList(6, 9).stream()
                .map(e -> tape.codec().data(e, MemberProvisioned.class))
                .map(m -> m.member() + ":" + m.outcome() + ":" + m.round())
                .toList())
        .containsExactly("lead:existing:2", "writer:created:2", "critic:existing:2");
  }

  @Test
  void aReconnectTheRuntimeRefusesLeavesTheTeamDisconnected() {
    Map<String, String> roster = webhookRoster("lead", "writer");
    UUID team = api.createTeam(owner, roster);
    api.awaitStatus(owner, team, "ready");
    disconnect(team, api.service("scheduler-service")).expectStatus().isOk();
    runtime.refuse(roster.get("writer"), "access still revoked");

    reconnect(team).expectStatus().isAccepted();

    List<EventEnvelope> events = tape.awaitType(team, "TeamReconnectFailed");
    assertThat(types(events))
        .endsWith("TeamDisconnected", "MemberProvisioned", "TeamReconnectFailed");
    Map<String, Object> after = api.team(owner, team);
    assertThat(after.get("status")).isEqualTo("disconnected");
    assertThat((String) after.get("status_reason")).contains("access still revoked");
  }

  @Test
  void reconnectLeavesAReadyTeamAloneAndRefusesATeamThatIsNotDisconnected() {
    UUID ready = api.createTeamWithPullAgents(owner, "lead", "writer");
    api.awaitStatus(owner, ready, "ready");
    long revision = ((Number) api.team(owner, ready).get("revision")).longValue();

    reconnect(ready).expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("ready");
    assertThat(((Number) api.team(owner, ready).get("revision")).longValue()).isEqualTo(revision);

    Map<String, String> stuck = webhookRoster("lead", "writer");
    // Still provisioning or already failed when the reconnect arrives: refused either way.
    runtime.failNext(stuck.get("lead"), 100);
    UUID notDisconnected = api.createTeam(owner, stuck);
    reconnect(notDisconnected)
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("team-status-conflict");
  }

  private Map<String, String> webhookRoster(String... members) {
    Map<String, String> roster = new LinkedHashMap<>();
    for (String member : members) {
      String agent = TeamApi.newAgentId(member);
      api.registerAgent(owner, agent, "webhook", "https://agents.example/" + member);
      roster.put(member, agent);
    }
    return roster;
  }

  private void replaceWithPull(String agentId) {
    web.put()
        .uri("/api/v1/agents/{id}", agentId)
        .header("Authorization", api.owner(owner))
        .bodyValue(Map.of("name", "Now a pull agent", "runtime", Map.of("kind", "pull")))
        .exchange()
        .expectStatus()
        .isOk();
  }

  private static Map<String, String> conversations(Map<String, Object> team) {
    Map<String, String> conversations = new LinkedHashMap<>();
    for (Map<String, Object> member : TeamApi.members(team)) {
      conversations.put((String) member.get("name"), (String) member.get("conversation_id"));
    }
    return conversations;
  }

  private void refusedWithUnfinishedJobs(UUID team, int unfinished) {
    delete(team)
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("team-has-unfinished-jobs")
        .jsonPath("$.unfinished_jobs")
        .isEqualTo(unfinished);
  }

  private WebTestClient.ResponseSpec delete(UUID team) {
    return web.delete()
        .uri("/api/v1/teams/{id}", team)
        .header("Authorization", api.owner(owner))
        .exchange();
  }

  private WebTestClient.ResponseSpec reconnect(UUID team) {
    return web.post()
        .uri("/api/v1/teams/{id}/reconnect", team)
        .header("Authorization", api.owner(owner))
        .exchange();
  }

  private WebTestClient.ResponseSpec disconnect(UUID team, String authorization) {
    return web.post()
        .uri("/api/v1/teams/{id}/disconnect", team)
        .header("Authorization", authorization)
        .bodyValue(Map.of("reason", "dispatch target revoked access"))
        .exchange();
  }

  /** Waits until the projection's consumer has applied (or skipped) the event. */
  private void applied(UUID eventId) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () ->
                db.sql(
                            "SELECT count(*) AS n FROM platform.processed_event"
                                + " WHERE consumer = :consumer AND event_id = :id")
                        .bind("consumer", "team-service." + SchedulerJobSubscription.NAME)
                        .bind("id", eventId)
                        .map(row -> row.get("n", Long.class))
                        .one()
                        .block()
                    == 1);
  }

  private long count(String sql, UUID team) {
    return db.sql(sql).bind("team", team).map(row -> row.get("n", Long.class)).one().block();
  }
}
