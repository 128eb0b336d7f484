package io.agentteams.platform.roster;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.team.MemberProvisioned;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.StateEntry;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.contracts.team.TeamDeleted;
import io.agentteams.contracts.team.TeamDisconnected;
import io.agentteams.contracts.team.TeamFailed;
import io.agentteams.contracts.team.TeamReady;
import io.agentteams.contracts.team.TeamReconnectFailed;
import io.agentteams.contracts.team.TeamReconnected;
import io.agentteams.contracts.team.TeamStatePublished;
import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.consumer.IdempotentConsumer;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.support.PlatformFixture;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The roster projection follows a team's lifecycle and ignores anything older than it holds. */
@RealInfrastructure
class RostersIntegrationTest {

  private PlatformFixture fixture;
  private Rosters rosters;
  private IdempotentConsumer consumer;
  private UUID team;
  private String id;

  @BeforeEach
  void setUp(TestInfrastructure infrastructure) {
    fixture = new PlatformFixture(infrastructure, "rosters");
    rosters = new Rosters(fixture.db, fixture.codec);
    consumer = new IdempotentConsumer(fixture.db, fixture.transactions, fixture.tracing);
    team = UUID.randomUUID();
    id = team.toString();
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
  }

  private EventEnvelope envelope(EventPayload payload, long revision) {
    return fixture.codec.envelope(payload, id, "alice", revision, null);
  }

  private void apply(EventEnvelope event) {
    assertThat(consumer.process("roster", event, rosters.handler()).block()).isTrue();
  }

  private Roster roster() {
    return rosters.find(team).block();
  }

  private TeamCreated created() {
    return created(id);
  }

  private static TeamCreated created(String id) {
    return new TeamCreated(
        id,
        "alice",
        "Report team",
        "Write it",
        "provisioning",
        List.of(
            new RosterMember("lead", "agent-a", true, "c-lead"),
            new RosterMember("writer", "agent-b", false, "c-writer")),
        1);
  }

  @Test
  void aCachedRosterIsReusedForItsTimeToLiveAndAnUnknownTeamIsNeverCached() {
    AtomicLong now = new AtomicLong();
    RosterCache cache = new RosterCache(rosters, Duration.ofSeconds(1), now::get);
    assertThat(cache.find(team).blockOptional()).as("not learned of yet").isEmpty();
    apply(envelope(created(), 1));
    assertThat(cache.find(team).block().status().wire())
        .as("an unknown team was not kept")
        .isEqualTo("provisioning");

    apply(envelope(new TeamReady(id, 4), 4));
    now.addAndGet(Duration.ofMillis(999).toNanos());
    assertThat(cache.find(team).block().status().wire())
        .as("within the ttl")
        .isEqualTo("provisioning");
    now.addAndGet(Duration.ofMillis(1).toNanos());
    assertThat(cache.find(team).block().status().wire()).as("after the ttl").isEqualTo("ready");

    RosterCache uncached = new RosterCache(rosters, Duration.ZERO, now::get);
    assertThat(uncached.find(team).block().status().wire()).isEqualTo("ready");
    apply(envelope(new TeamDeleted(id, 10), 10));
    assertThat(uncached.find(team).block().status().wire())
        .as("ttl 0 reads every time")
        .isEqualTo("deleted");
  }

  @Test
  void followsTheLifecycleFromCreationThroughReconnectToDeletion() {
    apply(envelope(created(), 1));
    assertThat(roster().status().wire()).isEqualTo("provisioning");
    assertThat(roster().members())
        .extracting(Roster.Member::name)
        .containsExactly("lead", "writer");

    apply(
        envelope(
            new MemberProvisioned(id, "lead", "agent-a", "pull", "c-lead", 1, "allocated", 2), 2));
    apply(
        envelope(
            new MemberProvisioned(id, "writer", "agent-b", "pull", "c-writer", 1, "allocated", 3),
            3));
    assertThat(roster().status().wire()).isEqualTo("provisioning");
    apply(envelope(new TeamReady(id, 4), 4));
    assertThat(roster().status().wire()).isEqualTo("ready");
    assertThat(roster().revision()).isEqualTo(4);

    apply(envelope(new TeamDisconnected(id, "revoked", 5), 5));
    assertThat(roster().status().wire()).isEqualTo("disconnected");
    apply(envelope(new TeamReconnectFailed(id, "writer", "still revoked", 6), 6));
    assertThat(roster().status().wire()).isEqualTo("disconnected");
    apply(envelope(new TeamReconnected(id, List.of("writer"), 9), 9));
    assertThat(roster().status().wire()).isEqualTo("ready");
    assertThat(roster().revision()).isEqualTo(9);
    assertThat(roster().member("writer")).map(Roster.Member::conversationId).contains("c-writer");

    apply(envelope(new TeamDeleted(id, 10), 10));
    assertThat(roster().status()).isEqualTo(TeamStatus.DELETED);
    assertThat(roster().members()).isEmpty();
    assertThat(roster().revision()).isEqualTo(10);
  }

  @Test
  void aTombstoneIsPurgedAfterItsRetentionAndALateEventDoesNotBringTheTeamBack() {
    Duration retention = Duration.ofDays(30);
    Rosters guarded = new Rosters(fixture.db, fixture.codec, retention, Clock.systemUTC());
    RosterTombstones tombstones = new RosterTombstones(fixture.db, retention, fixture.meters);
    UUID recent = UUID.randomUUID();
    for (UUID deleted : List.of(team, recent)) {
      String teamId = deleted.toString();
      applyWith(guarded, fixture.codec.envelope(created(teamId), teamId, "alice", 1, null));
      applyWith(
          guarded, fixture.codec.envelope(new TeamDeleted(teamId, 2), teamId, "alice", 2, null));
    }
    // The first team was deleted longer ago than the retention.
    fixture
        .db
        .sql(
            "UPDATE platform.roster_team SET updated_at = now() - make_interval(days => 31)"
                + " WHERE team_id = :team")
        .bind("team", team)
        .fetch()
        .rowsUpdated()
        .block();

    assertThat(tombstones.purge().block()).isGreaterThanOrEqualTo(1);

    assertThat(rosters.find(team).blockOptional()).as("purged").isEmpty();
    assertThat(rosters.find(recent).block().status()).as("kept").isEqualTo(TeamStatus.DELETED);
    assertThat(fixture.meters.counter("agentteams.roster.tombstones.purged").count())
        .isGreaterThanOrEqualTo(1);

    // A late copy of the purged team's creation: it occurred before the deletion, so it is older
    // than the retention, and ignored.
    EventEnvelope late = fixture.codec.envelope(created(id), id, "alice", 1, null);
    Instant occurred = Instant.now().minus(Duration.ofDays(31));
    applyWith(
        guarded,
        new EventEnvelope(
            UUID.randomUUID(),
            late.type(),
            late.schemaVersion(),
            late.teamId(),
            late.ownerId(),
            occurred,
            late.producer(),
            late.sequence(),
            late.trace(),
            late.data()));
    assertThat(rosters.find(team).blockOptional()).as("not resurrected").isEmpty();
  }

  private void applyWith(Rosters projection, EventEnvelope event) {
    assertThat(consumer.process("roster", event, projection.handler()).block()).isTrue();
  }

  @Test
  void aFailedProvisioningMakesTheRosterFailed() {
    apply(envelope(created(), 1));
    apply(envelope(new TeamFailed(id, "writer", "runtime refused", 2), 2));

    assertThat(roster().status().wire()).isEqualTo("failed");
    assertThat(roster().members()).hasSize(2);
  }

  @Test
  void staleEventsChangeNothing() {
    apply(envelope(created(), 1));
    apply(envelope(new TeamReady(id, 4), 4));

    apply(envelope(new TeamDisconnected(id, "late", 3), 3));
    apply(envelope(new TeamReady(id, 4), 4));

    assertThat(roster().status().wire()).isEqualTo("ready");
    assertThat(roster().revision()).isEqualTo(4);
  }

  @Test
  void aDeletedTeamIsNotBroughtBackByALateCopyOfAnOlderEvent() {
    apply(envelope(created(), 1));
    apply(envelope(new TeamDeleted(id, 5), 5));

    apply(envelope(created(), 1));
    apply(envelope(new TeamReady(id, 4), 4));

    assertThat(roster().status()).isEqualTo(TeamStatus.DELETED);
    assertThat(roster().members()).isEmpty();
  }

  @Test
  void aDeletionSeenBeforeTheCreationLeavesATombstone() {
    apply(envelope(new TeamDeleted(id, 7), 7));
    apply(envelope(created(), 1));

    assertThat(roster().ownerId()).isEqualTo("alice");
    assertThat(roster().status()).isEqualTo(TeamStatus.DELETED);
    assertThat(roster().members()).isEmpty();
  }

  @Test
  void eventsThatDoNotConcernTheRosterLeaveItAlone() {
    apply(envelope(created(), 1));
    StateEntry entry =
        new StateEntry(
            1,
            "plan",
            "t",
            "c",
            "active",
            "lead",
            "2026-11-30T08:00:00.000Z",
            "lead",
            "2026-11-30T08:00:00.000Z",
            "c-lead",
            null,
            1);

    apply(envelope(new TeamStatePublished(id, entry, 1, 2), 2));

    assertThat(roster().revision()).isEqualTo(1);
    assertThat(roster().status().wire()).isEqualTo("provisioning");
  }
}
