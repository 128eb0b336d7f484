package io.agentteams.platform.roster;

import static io.agentteams.platform.access.AccessPolicy.CallerKind.OWNER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.contracts.team.TeamReady;
import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.access.TeamIds;
import io.agentteams.platform.consumer.IdempotentConsumer;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.support.PlatformFixture;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A team is ready at the team service a moment before another service's projection learns of it: a
 * request about a team created moments ago waits for the projection instead of being told that the
 * team does not exist, and any other unknown team is refused at once.
 */
@RealInfrastructure
class RosterAccessIntegrationTest {

  private static final AccessPolicy OWNERS = AccessPolicy.admitting(OWNER);
  private static final Caller ALICE = new Caller.Owner("alice");

  private PlatformFixture fixture;
  private Rosters rosters;
  private IdempotentConsumer consumer;
  private SimpleMeterRegistry meters;

  @BeforeEach
  void setUp(TestInfrastructure infrastructure) {
    fixture = new PlatformFixture(infrastructure, "roster_access");
    rosters = new Rosters(fixture.db, fixture.codec);
    consumer = new IdempotentConsumer(fixture.db, fixture.transactions, fixture.tracing);
    meters = new SimpleMeterRegistry();
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
  }

  private RosterAccess access(Duration cacheTtl, Duration catchUp, Clock clock) {
    return new RosterAccess(new TeamAccess(), rosters, cacheTtl, catchUp, meters, clock);
  }

  private void apply(UUID team, EventPayload payload, long revision) {
    assertThat(
            consumer
                .process(
                    "roster",
                    fixture.codec.envelope(payload, team.toString(), "alice", revision, null),
                    rosters.handler())
                .block())
        .isTrue();
  }

  private static TeamCreated created(UUID team, String status) {
    return new TeamCreated(
        team.toString(),
        "alice",
        "Report team",
        "Write it",
        status,
        List.of(
            new RosterMember("lead", "agent-a", true, "c-lead"),
            new RosterMember("writer", "agent-b", false, "c-writer")),
        1);
  }

  private double catchUps(String outcome) {
    return meters.counter("agentteams.roster.catch.ups", "outcome", outcome).count();
  }

  @Test
  void aTeamCreatedMomentsAgoIsWaitedForUntilTheProjectionLearnsOfIt() throws Exception {
    UUID team = TeamIds.mint(Instant.now());
    CompletableFuture<Grant<Roster>> asked =
        access(Duration.ZERO, Duration.ofSeconds(30), Clock.systemUTC())
            .check(ALICE, team, OWNERS)
            .toFuture();

    apply(team, created(team, "ready"), 1);

    Grant<Roster> grant = asked.get(30, TimeUnit.SECONDS);
    assertThat(grant.team().teamId()).isEqualTo(team);
    assertThat(catchUps("not-learned")).isZero();
  }

  @Test
  void aCachedProvisioningReadOfAYoungTeamIsReadAgainFromTheProjectionUntilItIsReady() {
    Instant minted = Instant.now();
    UUID team = TeamIds.mint(minted);
    apply(team, created(team, "provisioning"), 1);
    AtomicReference<Instant> now = new AtomicReference<>(minted.plus(Duration.ofHours(2)));
    RosterAccess access = access(Duration.ofHours(1), Duration.ofSeconds(30), clock(now));
    assertThat(access.check(ALICE, team, OWNERS).block().team().status().wire())
        .as("past its window a team is answered as the projection has it (and that is cached)")
        .isEqualTo("provisioning");

    apply(team, new TeamReady(team.toString(), 2), 2);
    now.set(minted);
    assertThat(access.check(ALICE, team, OWNERS).block().team().status().wire())
        .as("within its window the cached provisioning read is read again from the projection")
        .isEqualTo("ready");
    assertThat(catchUps("learned")).isEqualTo(1);
  }

  private static Clock clock(AtomicReference<Instant> now) {
    return new Clock() {
      @Override
      public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now.get();
      }
    };
  }

  @Test
  void anUnknownRandomOrOldIdIsRefusedAtOnceWithoutWaiting() {
    RosterAccess access = access(Duration.ZERO, Duration.ofDays(1), Clock.systemUTC());
    UUID random = UUID.randomUUID();
    assertThatThrownBy(() -> access.check(ALICE, random, OWNERS).block())
        .isInstanceOfSatisfying(
            DomainFailure.class, f -> assertThat(f.getMessage()).contains(random.toString()));
    UUID old = TeamIds.mint(Instant.now().minus(Duration.ofDays(2)));
    assertThatThrownBy(() -> access.check(ALICE, old, OWNERS).block())
        .isInstanceOf(DomainFailure.class);
    assertThat(catchUps("learned") + catchUps("not-learned")).as("neither read waited").isZero();
  }

  @Test
  void aYoungTeamThatNeverArrivesIsRefusedWhenItsWindowEndsWhateverTimeItsIdClaims() {
    RosterAccess access = access(Duration.ZERO, Duration.ofMillis(200), Clock.systemUTC());
    UUID young = TeamIds.mint(Instant.now());
    assertThatThrownBy(() -> access.check(ALICE, young, OWNERS).block(Duration.ofSeconds(30)))
        .isInstanceOf(DomainFailure.class);
    UUID forged = TeamIds.mint(Instant.now().plus(Duration.ofDays(365)));
    assertThatThrownBy(() -> access.check(ALICE, forged, OWNERS).block(Duration.ofSeconds(30)))
        .as("an id claiming a future time waits no longer than the window from now")
        .isInstanceOf(DomainFailure.class);
    assertThat(catchUps("not-learned")).isEqualTo(2);
  }
}
