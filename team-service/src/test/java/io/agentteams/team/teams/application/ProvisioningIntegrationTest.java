package io.agentteams.team.teams.application;

import static io.agentteams.team.support.EventTape.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.team.MemberProvisioned;
import io.agentteams.contracts.team.TeamFailed;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.team.TeamServiceTest;
import io.agentteams.team.support.CrashingCheckpoint;
import io.agentteams.team.support.EventTape;
import io.agentteams.team.support.ScriptedRuntime;
import io.agentteams.team.support.TeamApi;
import io.agentteams.team.teams.ProvisioningProperties;
import io.agentteams.team.teams.application.ProvisioningCheckpoint.Step;
import io.agentteams.team.teams.persistence.ProvisioningStore;
import io.agentteams.team.teams.persistence.TeamStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Provisioning against a runtime that keeps conversations (the scripted webhook runtime), with
 * crashes and stalls injected between the steps of one member.
 */
@TeamServiceTest
class ProvisioningIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;
  @Autowired ScriptedRuntime runtime;
  @Autowired CrashingCheckpoint checkpoint;
  @Autowired TeamStore teams;
  @Autowired ProvisioningStore claims;
  @Autowired TeamEventLog events;
  @Autowired TransactionalOperator transactions;
  @Autowired ProvisioningProperties properties;

  TeamApi api;
  EventTape tape;
  String owner;
  Map<String, String> roster;

  @BeforeEach
  void setUp() {
    api = new TeamApi(web, tokens);
    tape = EventTape.teamEvents();
    owner = TeamApi.newOwner("crash");
    roster = new LinkedHashMap<>();
    for (String member : List.of("planner", "writer", "critic")) {
      String agent = TeamApi.newAgentId(member);
      api.registerAgent(owner, agent, "webhook", "https://agents.example/" + member);
      roster.put(member, agent);
    }
  }

  @ParameterizedTest
  @EnumSource(Step.class)
  void aCrashBetweenProvisioningStepsIsFinishedAfterTheRestartWithNoMemberDuplicated(Step step) {
    String victim = roster.get("writer");
    checkpoint.crashOnceAt(step, victim);

    UUID team = api.createTeam(owner, roster);

    await().atMost(Duration.ofSeconds(30)).until(() -> checkpoint.crashes(victim) == 1);
    // The dead worker's claim still holds: the half-provisioned team does not look ready.
    Map<String, Object> halfway = api.team(owner, team);
    assertThat(halfway.get("status")).isEqualTo("provisioning");
    assertThat(TeamApi.members(halfway))
        .filteredOn(m -> m.get("name").equals("critic"))
        .extracting(m -> m.get("provisioning"))
        .containsExactly("pending");

    Map<String, Object> settled = api.awaitSettled(owner, team);

    assertThat(settled.get("status")).isEqualTo("ready");
    assertThat(TeamApi.members(settled))
        .extracting(m -> m.get("provisioning"))
        .containsOnly("ensured");
    assertThat(count("SELECT count(*) AS n FROM team_member WHERE team_id = :team", team))
        .isEqualTo(3);
    assertThat(count("SELECT count(*) AS n FROM member_provisioning WHERE team_id = :team", team))
        .isEqualTo(3);
    for (Map<String, Object> member : TeamApi.members(settled)) {
      String conversation = (String) member.get("conversation_id");
      assertThat(runtime.holds(conversation)).isTrue();
      assertThat(runtime.creations(conversation)).as("created once").isEqualTo(1);
    }
    List<EventEnvelope> published = tape.awaitType(team, "TeamReady");
    assertThat(types(published))
        .containsExactly(
            "TeamCreated",
            "MemberProvisioned",
            "MemberProvisioned",
            "MemberProvisioned",
            "TeamReady");
    assertThat(provisionedMembers(published)).containsExactly("planner", "writer", "critic");
    assertThat(published).extracting(EventEnvelope::sequence).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void aCrashFollowedByARuntimeThatRefusesEndsFailedNotStuck() {
    String victim = roster.get("writer");
    checkpoint.crashOnceAt(Step.CLAIMED, victim);
    UUID team = api.createTeam(owner, roster);
    await().atMost(Duration.ofSeconds(30)).until(() -> checkpoint.crashes(victim) == 1);
    runtime.refuse(victim, "the agent's owner revoked this system's access");

    Map<String, Object> settled = api.awaitSettled(owner, team);

    assertThat(settled.get("status")).isEqualTo("failed");
    assertThat((String) settled.get("status_reason")).contains("revoked this system's access");
    assertThat(TeamApi.members(settled))
        .extracting(m -> m.get("provisioning"))
        .containsExactly("ensured", "failed", "abandoned");
    List<EventEnvelope> published = tape.awaitType(team, "TeamFailed");
    assertThat(types(published)).containsExactly("TeamCreated", "MemberProvisioned", "TeamFailed");
    assertThat(tape.codec().data(published.get(2), TeamFailed.class).member()).isEqualTo("writer");
    assertThat(dueAt(team)).as("nothing left to reconcile").isFalse();
  }

  @Test
  void aRuntimeThatIsDownBrieflyIsRetriedUntilTheTeamIsReady() {
    runtime.failNext(roster.get("critic"), properties.maxAttempts() - 1);

    UUID team = api.createTeam(owner, roster);

    assertThat(api.awaitSettled(owner, team).get("status")).isEqualTo("ready");
    assertThat(
            db.sql(
                    "SELECT attempts FROM member_provisioning"
                        + " WHERE team_id = :team AND member_name = 'critic'")
                .bind("team", team)
                .map(row -> row.get("attempts", Integer.class))
                .one()
                .block())
        .isEqualTo(properties.maxAttempts() - 1);
  }

  @Test
  void aRuntimeThatStaysDownFailsTheTeamAfterTheConfiguredAttempts() {
    runtime.failNext(roster.get("planner"), 100);

    UUID team = api.createTeam(owner, roster);

    Map<String, Object> settled = api.awaitSettled(owner, team);
    assertThat(settled.get("status")).isEqualTo("failed");
    assertThat((String) settled.get("status_reason")).contains("is down");
    assertThat(TeamApi.members(settled))
        .extracting(m -> m.get("provisioning"))
        .containsExactly("failed", "abandoned", "abandoned");
    assertThat(types(tape.awaitType(team, "TeamFailed")))
        .containsExactly("TeamCreated", "TeamFailed");
  }

  @Test
  void anA2aMemberIsProvisionedWithItsConversationAsTheContextId() {
    String a2a = TeamApi.newAgentId("a2a");
    api.registerAgent(owner, a2a, "a2a", "https://a2a.example/agent");
    roster.put("remote", a2a);

    UUID team = api.createTeam(owner, roster);

    Map<String, Object> settled = api.awaitSettled(owner, team);
    assertThat(settled.get("status")).isEqualTo("ready");
    assertThat(TeamApi.members(settled))
        .filteredOn(m -> "remote".equals(m.get("name")))
        .singleElement()
        .satisfies(
            remote -> {
              assertThat(remote.get("provisioning")).isEqualTo("ensured");
              assertThat(remote.get("runtime_kind")).isEqualTo("a2a");
              assertThat((String) remote.get("conversation_id")).isNotBlank();
            });
  }

  @Test
  void aStalledWorkerWhoseClaimWasTakenOverCannotRecordAnything() {
    String slow = roster.get("planner");
    CrashingCheckpoint.Pause stalled = checkpoint.pauseOnceAt(Step.ENSURED, slow);
    UUID team = api.createTeam(owner, roster);
    stalled.reached().block(Duration.ofSeconds(30));

    // A second replica takes the team over once the stalled worker's lease has run out.
    TeamProvisioning replica =
        new TeamProvisioning(
            teams,
            claims,
            events,
            runtime,
            ProvisioningCheckpoint.NONE,
            transactions,
            properties,
            new SimpleMeterRegistry());
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              replica.provisionDue(team).block(Duration.ofSeconds(10));
              return "ready".equals(api.team(owner, team).get("status"));
            });
    stalled.release();

    // Every worker that claimed the planner (the stalled one, and the reconciler if it took over
    // rather than the replica) goes past the record step; the stalled one records nothing there.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                checkpoint.arrivals(slow, Step.RECORDED)
                    == checkpoint.arrivals(slow, Step.CLAIMED));
    List<EventEnvelope> published = tape.awaitType(team, "TeamReady");
    assertThat(revision(team)).isEqualTo(5);
    assertThat(types(tape.of(team)))
        .containsExactly(
            "TeamCreated",
            "MemberProvisioned",
            "MemberProvisioned",
            "MemberProvisioned",
            "TeamReady");
    assertThat(provisionedMembers(published)).containsExactly("planner", "writer", "critic");
    String plannerConversation =
        (String) TeamApi.members(api.team(owner, team)).get(0).get("conversation_id");
    assertThat(runtime.creations(plannerConversation)).isEqualTo(1);
    assertThat(runtime.calls(plannerConversation)).isEqualTo(2);
  }

  private long revision(UUID team) {
    return db.sql("SELECT revision FROM team WHERE id = :team")
        .bind("team", team)
        .map(row -> row.get("revision", Long.class))
        .one()
        .block();
  }

  private List<String> provisionedMembers(List<EventEnvelope> published) {
    return published.stream()
        .filter(e -> e.type().equals(MemberProvisioned.TYPE))
        .map(e -> tape.codec().data(e, MemberProvisioned.class).member())
        .toList();
  }

  private long count(String sql, UUID team) {
    return db.sql(sql).bind("team", team).map(row -> row.get("n", Long.class)).one().block();
  }

  private boolean dueAt(UUID team) {
    return db.sql("SELECT provisioning_due_at IS NOT NULL AS due FROM team WHERE id = :team")
        .bind("team", team)
        .map(row -> row.get("due", Boolean.class))
        .one()
        .block();
  }
}
