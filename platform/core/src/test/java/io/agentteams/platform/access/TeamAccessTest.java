package io.agentteams.platform.access;

import static io.agentteams.platform.access.AccessPolicy.CallerKind.MEMBER;
import static io.agentteams.platform.access.AccessPolicy.CallerKind.OWNER;
import static io.agentteams.platform.access.AccessPolicy.CallerKind.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class TeamAccessTest {

  private static final UUID TEAM = UUID.fromString("00000000-0000-0000-0000-00000000000a");
  private static final UUID OTHER_TEAM = UUID.fromString("00000000-0000-0000-0000-00000000000b");
  private static final UUID JOB = UUID.fromString("00000000-0000-0000-0000-00000000000c");

  private static final AccessPolicy ANYONE = AccessPolicy.admitting(OWNER, MEMBER, SERVICE);

  private final TeamAccess access = new TeamAccess();

  /** A roster as a service would hold it. */
  record Team(UUID teamId, String ownerId, TeamStatus status, Map<String, Boolean> members)
      implements TeamRoster {
    @Override
    public Optional<Seat> seat(String member) {
      return Optional.ofNullable(members.get(member)).map(lead -> new Seat(member, lead));
    }
  }

  private static Team team(TeamStatus status) {
    return new Team(TEAM, "alice", status, Map.of("lead", true, "ana", false));
  }

  private static DomainFailure failure(String code) {
    return DomainFailure.forbidden(code, code);
  }

  private String refusal(Caller caller, Team team, AccessPolicy policy) {
    try {
      access.decide(caller, TEAM, team, policy);
      return "granted";
    } catch (DomainFailure refused) {
      return refused.code();
    }
  }

  @Test
  void theOwnerActsAsOwnerAndAMemberAsItselfWithItsLeadAndJob() {
    Grant<Team> owner =
        access.decide(new Caller.Owner("alice"), TEAM, team(TeamStatus.READY), ANYONE);
    assertThat(owner.as()).isEqualTo(new Acting.AsOwner("alice"));
    assertThat(owner.ownerId()).isEqualTo("alice");

    Grant<Team> lead =
        access.decide(
            new Caller.Member("alice", TEAM, "lead", JOB), TEAM, team(TeamStatus.READY), ANYONE);
    assertThat(lead.member()).isEqualTo(new Acting.AsMember("lead", true, JOB));
    Grant<Team> ana =
        access.decide(
            new Caller.Member("alice", TEAM, "ana", null), TEAM, team(TeamStatus.READY), ANYONE);
    assertThat(ana.member()).isEqualTo(new Acting.AsMember("ana", false, null));
  }

  @Test
  void aServiceActsOnAnyTeamOnlyWhereTheOperationAdmitsServices() {
    Caller service = new Caller.Service("scheduler");
    assertThat(access.decide(service, TEAM, team(TeamStatus.READY), ANYONE).as())
        .isEqualTo(new Acting.AsService("scheduler"));
    assertThat(refusal(service, team(TeamStatus.READY), AccessPolicy.admitting(OWNER, MEMBER)))
        .isEqualTo("team-not-found");
  }

  @Test
  void aMissingOrDeletedTeamIsNotFoundUnlessThePolicyKeepsDeletedTeams() {
    assertThat(refusal(new Caller.Owner("alice"), null, ANYONE)).isEqualTo("team-not-found");
    assertThat(refusal(new Caller.Owner("alice"), team(TeamStatus.DELETED), ANYONE))
        .isEqualTo("team-not-found");
    assertThat(
            refusal(
                new Caller.Owner("alice"), team(TeamStatus.DELETED), ANYONE.keepingDeletedTeams()))
        .isEqualTo("granted");
    AccessPolicy activeOnly =
        ANYONE
            .keepingDeletedTeams()
            .activeIn(
                EnumSet.of(TeamStatus.READY, TeamStatus.DISCONNECTED),
                (teamId, status) -> failure("team-not-active-" + status.wire()));
    assertThat(refusal(new Caller.Owner("alice"), team(TeamStatus.DELETED), activeOnly))
        .isEqualTo("team-not-active-deleted");
    assertThat(refusal(new Caller.Owner("alice"), team(TeamStatus.PROVISIONING), activeOnly))
        .isEqualTo("team-not-active-provisioning");
    assertThat(refusal(new Caller.Owner("alice"), team(TeamStatus.DISCONNECTED), activeOnly))
        .isEqualTo("granted");
  }

  @Test
  void insidersAreRefusedAsThePolicySays() {
    AccessPolicy members =
        AccessPolicy.admitting(MEMBER)
            .refusingOtherCallers((caller, teamId) -> failure("wrong-caller-kind"))
            .refusingForeignTokens((member, teamId) -> failure("wrong-team"))
            .refusingNonMembers((member, teamId) -> failure("not-a-member"));
    Team team = team(TeamStatus.READY);

    assertThat(refusal(new Caller.Owner("alice"), team, members)).isEqualTo("wrong-caller-kind");
    assertThat(refusal(new Caller.Worker("alice", "agent"), team, members))
        .isEqualTo("wrong-caller-kind");
    assertThat(refusal(new Caller.Member("alice", OTHER_TEAM, "ana", null), team, members))
        .isEqualTo("wrong-team");
    assertThat(refusal(new Caller.Member("alice", TEAM, "ghost", null), team, members))
        .isEqualTo("not-a-member");
    assertThat(refusal(new Caller.Member("alice", TEAM, "ana", null), team, members))
        .isEqualTo("granted");
    assertThat(refusal(new Caller.Member("alice", TEAM, "ghost", null), team, ANYONE))
        .as("by default every refusal is not found")
        .isEqualTo("team-not-found");
    assertThat(refusal(new Caller.Worker("alice", "agent"), team, ANYONE))
        .isEqualTo("team-not-found");
  }

  @Test
  void tokensJudgedFromTheTokenAloneOrOnlyOnceTheTeamIsTheCallersOwn() {
    AccessPolicy tokenFirst =
        AccessPolicy.admitting(OWNER, MEMBER)
            .refusingOtherCallers((caller, teamId) -> failure("not-on-board"))
            .refusingForeignTokens((member, teamId) -> failure("not-a-member"));
    AccessPolicy afterOwnership = tokenFirst.judgingTokensAfterOwnership();
    Team team = team(TeamStatus.READY);
    Caller mallorysWorker = new Caller.Worker("mallory", "agent");
    Caller mallorysMember = new Caller.Member("mallory", OTHER_TEAM, "lead", null);
    Caller alicesOtherTeam = new Caller.Member("alice", OTHER_TEAM, "lead", null);

    assertThat(refusal(mallorysWorker, team, tokenFirst)).isEqualTo("not-on-board");
    assertThat(refusal(mallorysMember, team, tokenFirst)).isEqualTo("not-a-member");
    assertThat(refusal(mallorysWorker, team, afterOwnership)).isEqualTo("team-not-found");
    assertThat(refusal(mallorysMember, team, afterOwnership)).isEqualTo("team-not-found");
    assertThat(refusal(alicesOtherTeam, team, afterOwnership)).isEqualTo("not-a-member");
    assertThat(refusal(new Caller.Worker("alice", "agent"), team, afterOwnership))
        .isEqualTo("not-on-board");
  }

  @Test
  void aMemberTokenActsOnlyAsItsOwnMember() {
    AccessPolicy view =
        AccessPolicy.admitting(OWNER, MEMBER)
            .refusingOtherMembers((member, teamId) -> failure("not-this-member"));
    assertThat(access.screenAs(new Caller.Member("alice", TEAM, "ana", null), TEAM, "ana", view))
        .isEmpty();
    assertThat(access.screenAs(new Caller.Member("alice", TEAM, "ana", null), TEAM, "lead", view))
        .map(DomainFailure::code)
        .contains("not-this-member");
    assertThat(access.screenAs(new Caller.Owner("alice"), TEAM, "lead", view)).isEmpty();
    assertThat(
            access.screenAs(new Caller.Member("alice", OTHER_TEAM, "ana", null), TEAM, "ana", view))
        .map(DomainFailure::code)
        .contains("team-not-found");
  }

  @Test
  void theTeamIsNotReadWhenTheTokenAloneRefusesTheCaller() {
    AtomicInteger reads = new AtomicInteger();
    Mono<Team> read =
        Mono.fromSupplier(() -> team(TeamStatus.READY)).doOnSubscribe(s -> reads.incrementAndGet());
    AccessPolicy members = AccessPolicy.admitting(MEMBER);

    StepVerifier.create(access.check(new Caller.Worker("alice", "agent"), TEAM, members, read))
        .expectErrorSatisfies(
            e -> assertThat(((DomainFailure) e).code()).isEqualTo("team-not-found"))
        .verify();
    assertThat(reads).hasValue(0);

    StepVerifier.create(
            access.check(new Caller.Member("alice", TEAM, "ana", null), TEAM, members, read))
        .assertNext(grant -> assertThat(grant.member().name()).isEqualTo("ana"))
        .verifyComplete();
    StepVerifier.create(access.check(new Caller.Owner("alice"), TEAM, ANYONE, Mono.<Team>empty()))
        .expectErrorSatisfies(
            e -> assertThat(((DomainFailure) e).code()).isEqualTo("team-not-found"))
        .verify();
    assertThat(reads).hasValue(1);
  }

  /**
   * Whatever a service chooses for its insiders, another owner's callers learn only "not found".
   */
  @Property
  void anotherOwnersCallerLearnsOnlyThatTheTeamIsNotFound(
      @ForAll("policies") AccessPolicy policy,
      @ForAll("outsiders") Caller outsider,
      @ForAll TeamStatus status) {
    Team team = team(status);
    try {
      access.decide(outsider, TEAM, team, policy);
      throw new AssertionError("an outsider was granted access");
    } catch (DomainFailure refused) {
      boolean judgedFromTokenAlone = access.screen(outsider, TEAM, policy).isPresent();
      if (!judgedFromTokenAlone) {
        assertThat(refused.code()).isEqualTo("team-not-found");
        assertThat(refused.parameters()).isEqualTo(Map.of("id", TEAM.toString()));
      }
      // A refusal from the token alone is the same for any team, present or not.
      assertThatThrownBy(() -> access.decide(outsider, TEAM, null, policy))
          .isInstanceOfSatisfying(
              DomainFailure.class, absent -> assertThat(absent.code()).isEqualTo(refused.code()));
    }
  }

  @Provide
  Arbitrary<Caller> outsiders() {
    return Arbitraries.of(
        List.of(
            new Caller.Owner("mallory"),
            new Caller.Member("mallory", TEAM, "lead", null),
            new Caller.Member("mallory", OTHER_TEAM, "lead", null),
            new Caller.Worker("mallory", "agent")));
  }

  @Provide
  Arbitrary<AccessPolicy> policies() {
    Arbitrary<AccessPolicy> admitting =
        Arbitraries.subsetOf(AccessPolicy.CallerKind.values())
            .ofMinSize(1)
            .map(
                kinds -> {
                  AccessPolicy.CallerKind[] rest =
                      kinds.stream().skip(1).toArray(AccessPolicy.CallerKind[]::new);
                  return AccessPolicy.admitting(kinds.iterator().next(), rest);
                });
    return Combinators.combine(admitting, Arbitraries.of(true, false), Arbitraries.of(true, false))
        .as(
            (policy, afterOwnership, keepDeleted) -> {
              AccessPolicy chosen =
                  policy
                      .refusingOtherCallers((caller, teamId) -> failure("other-caller"))
                      .refusingForeignTokens((member, teamId) -> failure("foreign-token"))
                      .refusingNonMembers((member, teamId) -> failure("non-member"))
                      .activeIn(
                          EnumSet.of(TeamStatus.READY), (teamId, status) -> failure("inactive"));
              chosen = afterOwnership ? chosen.judgingTokensAfterOwnership() : chosen;
              return keepDeleted ? chosen.keepingDeletedTeams() : chosen;
            });
  }
}
