package io.agentteams.team.teams.domain;

import static io.agentteams.team.support.TextBoundaries.assertOutcome;
import static io.agentteams.team.teams.domain.TeamFixture.members;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.contracts.team.MemberProvisioned;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.contracts.team.TeamDeleted;
import io.agentteams.contracts.team.TeamDisconnected;
import io.agentteams.contracts.team.TeamEvent;
import io.agentteams.contracts.team.TeamFailed;
import io.agentteams.contracts.team.TeamReady;
import io.agentteams.contracts.team.TeamReconnectFailed;
import io.agentteams.contracts.team.TeamReconnected;
import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.support.TextBoundaries;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class TeamTest {

  static Stream<Arguments> nameBoundaries() {
    return TextBoundaries.of("team.name", 80, 160);
  }

  static Stream<Arguments> goalBoundaries() {
    return TextBoundaries.of("team.goal", 2000, 4000);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nameBoundaries")
  void checksTheNameAtItsCharacterAndByteBoundaries(
      String label, String name, @Nullable String expected) {
    assertOutcome(() -> TeamFixture.create(name, "goal", members(2)), expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goalBoundaries")
  void checksTheGoalAtItsCharacterAndByteBoundaries(
      String label, String goal, @Nullable String expected) {
    assertOutcome(() -> TeamFixture.create("name", goal, members(2)), expected);
  }

  @Test
  void rejectsBlankNamesAndTextPostgresCannotStore() {
    assertOutcome(() -> TeamFixture.create("   ", "goal", members(2)), "blank-field");
    assertOutcome(() -> TeamFixture.create("name", "goal\u0000", members(2)), "nul-character");
    assertOutcome(() -> TeamFixture.create(null, "goal", members(2)), "missing-field");
  }

  @Test
  void acceptsTwoToEightMembers() {
    assertThat(TeamFixture.teamWithLeadAndMembers(2).members()).hasSize(2);
    assertThat(TeamFixture.teamWithLeadAndMembers(8).members()).hasSize(8);
  }

  @Test
  void rejectsFewerThanTwoMembers() {
    assertOutcome(() -> TeamFixture.teamWithLeadAndMembers(1), "too-few-members");
  }

  @Test
  void rejectsMoreThanEightMembersNamingTheLimit() {
    assertThatThrownBy(() -> TeamFixture.teamWithLeadAndMembers(9))
        .isInstanceOf(LimitExceededException.class)
        .extracting(e -> ((LimitExceededException) e).limit())
        .isEqualTo("team.members.max");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Lead",
        "lead_writer",
        "-lead",
        "lead-",
        "lead--writer",
        "1lead",
        "",
        "léad",
        "lead writer",
        "a23456789012345678901234567890123456789012"
      })
  void rejectsMemberNamesThatAreNotLowercaseKebabCase(String name) {
    List<NewMember> members = new ArrayList<>(members(1));
    members.add(new NewMember(name, "agent-2", false));
    assertOutcome(() -> TeamFixture.create("name", "goal", members), "invalid-member-name");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "lead-writer-2", "r2d2", "a234567890123456789012345678901234567890"})
  void acceptsLowercaseKebabCaseNamesOfUpToFortyCharacters(String name) {
    List<NewMember> members = new ArrayList<>(members(1));
    members.add(new NewMember(name, "agent-2", false));
    assertThat(TeamFixture.create("name", "goal", members).findMember(name)).isPresent();
  }

  @Test
  void rejectsAMemberNameUsedTwice() {
    List<NewMember> members =
        List.of(
            new NewMember("writer", "agent-1", false), new NewMember("writer", "agent-2", false));
    assertOutcome(() -> TeamFixture.create("name", "goal", members), "duplicate-member-name");
  }

  @Test
  void allowsAtMostOneLeadAndNoneAtAll() {
    List<NewMember> twoLeads =
        List.of(new NewMember("a", "agent-1", true), new NewMember("b", "agent-2", true));
    assertOutcome(() -> TeamFixture.create("name", "goal", twoLeads), "several-leads");
    List<NewMember> noLead =
        List.of(new NewMember("a", "agent-1", false), new NewMember("b", "agent-2", false));
    assertThat(TeamFixture.create("name", "goal", noLead).members()).noneMatch(Member::lead);
  }

  @Test
  void rejectsAnAgentMissingFromTheOwnersCatalogNamingItAndTheMember() {
    List<NewMember> members =
        List.of(
            new NewMember("writer", "agent-1", true), new NewMember("critic", "agnet-2", false));
    assertThatThrownBy(() -> TeamFixture.create("name", "goal", members))
        .isInstanceOfSatisfying(
            DomainFailure.class,
            problem -> {
              assertThat(problem.code()).isEqualTo("unknown-agent");
              assertThat(problem.parameters())
                  .containsEntry("agent_id", "agnet-2")
                  .containsEntry("member", "critic");
              assertThat(problem.detail()).contains("agnet-2", "critic");
            });
    List<NewMember> noAgent =
        List.of(new NewMember("writer", "agent-1", true), new NewMember("critic", null, false));
    assertOutcome(() -> TeamFixture.create("name", "goal", noAgent), "missing-agent");
  }

  @Test
  void aNewTeamIsProvisioningWithEveryMemberPendingOnItsOwnConversationAndRecordedBinding() {
    List<NewMember> members =
        List.of(new NewMember("writer", "agent-1", true), new NewMember("critic", "hook-2", false));
    Team team = TeamFixture.create("name", "goal", members);

    assertThat(team.status()).isEqualTo(TeamStatus.PROVISIONING);
    assertThat(team.revision()).isEqualTo(1);
    assertThat(team.round()).isEqualTo(1);
    assertThat(team.members()).extracting(Member::status).containsOnly(MemberStatus.PENDING);
    assertThat(team.members()).extracting(Member::conversationId).doesNotHaveDuplicates();
    Member critic = team.findMember("critic").orElseThrow();
    assertThat(critic.runtime().kind()).isEqualTo(RuntimeKind.WEBHOOK);
    assertThat(critic.binding(team.id()).endpoint()).isEqualTo("https://hooks.example/2");
    assertThat(team.createdAt())
        .isEqualTo(TeamFixture.NOW.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
  }

  @Test
  void creationRecordsTeamCreatedWithTheFullRoster() {
    Team team = TeamFixture.teamWithLeadAndMembers(3);

    List<TeamEvent> events = team.takeEvents();

    assertThat(events).hasSize(1);
    TeamCreated created = (TeamCreated) events.get(0);
    assertThat(created.teamRevision()).isEqualTo(1);
    assertThat(created.status()).isEqualTo("provisioning");
    assertThat(created.members())
        .containsExactly(
            new RosterMember("member-1", "agent-1", true, "conversation-member-1"),
            new RosterMember("member-2", "agent-2", false, "conversation-member-2"),
            new RosterMember("member-3", "agent-3", false, "conversation-member-3"));
    assertThat(team.takeEvents()).isEmpty();
  }

  @Test
  void becomesReadyOnlyWhenEveryMembersConversationIsEnsured() {
    Team team = TeamFixture.teamWithLeadAndMembers(2);
    team.takeEvents();

    team.memberEnsured(new MemberName("member-1"), ConversationOutcome.ALLOCATED);
    assertThat(team.status()).isEqualTo(TeamStatus.PROVISIONING);
    assertThat(types(team.takeEvents())).containsExactly(MemberProvisioned.class);

    team.memberEnsured(new MemberName("member-2"), ConversationOutcome.CREATED);
    assertThat(team.status()).isEqualTo(TeamStatus.READY);
    List<TeamEvent> events = team.takeEvents();
    assertThat(types(events)).containsExactly(MemberProvisioned.class, TeamReady.class);
    assertThat(events).extracting(TeamEvent::teamRevision).containsExactly(3L, 4L);
    MemberProvisioned provisioned = (MemberProvisioned) events.get(0);
    assertThat(provisioned.outcome()).isEqualTo("created");
    assertThat(provisioned.round()).isEqualTo(1);
    assertThat(provisioned.conversationId()).isEqualTo("conversation-member-2");
  }

  @Test
  void ensuringAMemberAgainAfterACrashRecordsNothingTwice() {
    Team team = TeamFixture.teamWithLeadAndMembers(2);
    team.takeEvents();
    MemberName first = new MemberName("member-1");

    assertThat(team.memberEnsured(first, ConversationOutcome.ALLOCATED)).isTrue();
    assertThat(team.memberEnsured(first, ConversationOutcome.ALLOCATED)).isFalse();

    assertThat(types(team.takeEvents())).containsExactly(MemberProvisioned.class);
    assertThat(team.revision()).isEqualTo(2);
  }

  @Test
  void aMemberThatCannotBeProvisionedFailsTheTeamWhichNeverLooksReady() {
    Team team = TeamFixture.teamWithLeadAndMembers(3);
    team.takeEvents();
    team.memberEnsured(new MemberName("member-1"), ConversationOutcome.ALLOCATED);

    team.memberFailed(new MemberName("member-2"), "runtime refused");

    assertThat(team.status()).isEqualTo(TeamStatus.FAILED);
    assertThat(team.statusReason()).isEqualTo("runtime refused");
    assertThat(team.members())
        .extracting(Member::status)
        .containsExactly(MemberStatus.ENSURED, MemberStatus.FAILED, MemberStatus.ABANDONED);
    assertThat(team.memberEnsured(new MemberName("member-3"), ConversationOutcome.ALLOCATED))
        .isFalse();
    assertThat(team.status()).isEqualTo(TeamStatus.FAILED);
    List<TeamEvent> events = team.takeEvents();
    assertThat(types(events)).containsExactly(MemberProvisioned.class, TeamFailed.class);
    assertThat(((TeamFailed) events.get(1)).member()).isEqualTo("member-2");
  }

  @Test
  void aFailedMemberKeepsItsNameSoTheNameIsNeverReused() {
    Team team = TeamFixture.teamWithLeadAndMembers(2);
    team.memberFailed(new MemberName("member-2"), "runtime refused");

    assertThat(team.findMember("member-2")).map(Member::status).contains(MemberStatus.FAILED);
    assertThat(team.members())
        .extracting(m -> m.name().value())
        .containsExactly("member-1", "member-2");
  }

  @Test
  void onlyAReadyTeamCanBeDisconnectedAndDisconnectingTwiceChangesNothing() {
    Team provisioning = TeamFixture.teamWithLeadAndMembers(2);
    assertOutcome(() -> provisioning.disconnect("revoked"), "team-status-conflict");

    Team team = TeamFixture.readyTeam(2);
    assertThat(team.disconnect("dispatch target revoked access")).isTrue();
    assertThat(team.disconnect("again")).isFalse();

    assertThat(team.status()).isEqualTo(TeamStatus.DISCONNECTED);
    assertThat(team.statusReason()).isEqualTo("dispatch target revoked access");
    assertThat(types(team.takeEvents())).containsExactly(TeamDisconnected.class);
  }

  @Test
  void reconnectEnsuresEveryMemberAgainAndReportsWhichConversationsWereRecreated() {
    Team team = TeamFixture.readyTeam(3);
    long before = team.revision();
    team.disconnect("ambiguous failure");
    team.takeEvents();

    assertThat(team.startReconnect()).isTrue();
    assertThat(team.round()).isEqualTo(2);
    assertThat(team.members()).extracting(Member::status).containsOnly(MemberStatus.PENDING);
    assertThat(team.takeEvents()).isEmpty();
    assertThat(team.startReconnect()).as("a reconnect under way is not restarted").isFalse();

    team.memberEnsured(new MemberName("member-1"), ConversationOutcome.EXISTING);
    team.memberEnsured(new MemberName("member-2"), ConversationOutcome.CREATED);
    team.memberEnsured(new MemberName("member-3"), ConversationOutcome.EXISTING);

    assertThat(team.status()).isEqualTo(TeamStatus.READY);
    List<TeamEvent> events = team.takeEvents();
    assertThat(types(events))
        .containsExactly(
            MemberProvisioned.class,
            MemberProvisioned.class,
            MemberProvisioned.class,
            TeamReconnected.class);
    assertThat(((TeamReconnected) events.get(3)).recreatedMembers()).containsExactly("member-2");
    assertThat(((MemberProvisioned) events.get(0)).round()).isEqualTo(2);
    assertThat(events.get(3).teamRevision()).isEqualTo(before + 5);
  }

  @Test
  void aFailedReconnectLeavesTheTeamDisconnectedAndItMayBeReconnectedAgain() {
    Team team = TeamFixture.readyTeam(2);
    team.disconnect("revoked");
    team.startReconnect();
    team.takeEvents();

    team.memberFailed(new MemberName("member-1"), "still revoked");

    assertThat(team.status()).isEqualTo(TeamStatus.DISCONNECTED);
    assertThat(types(team.takeEvents())).containsExactly(TeamReconnectFailed.class);
    assertThat(team.startReconnect()).isTrue();
    assertThat(team.round()).isEqualTo(3);
  }

  @Test
  void onlyADisconnectedTeamCanBeReconnectedAndAReadyOneIsLeftAlone() {
    assertOutcome(
        () -> TeamFixture.teamWithLeadAndMembers(2).startReconnect(), "team-status-conflict");
    Team failed = TeamFixture.teamWithLeadAndMembers(2);
    failed.memberFailed(new MemberName("member-1"), "refused");
    assertOutcome(failed::startReconnect, "team-status-conflict");
    Team ready = TeamFixture.readyTeam(2);
    assertThat(ready.startReconnect()).isFalse();
    assertThat(ready.round()).isEqualTo(1);
  }

  @Test
  void deletingRecordsTeamDeletedAndADeletedTeamIsGone() {
    Team team = TeamFixture.readyTeam(2);

    team.delete();

    assertThat(team.status()).isEqualTo(TeamStatus.DELETED);
    assertThat(types(team.takeEvents())).containsExactly(TeamDeleted.class);
    assertOutcome(team::delete, "team-not-found");
    assertThat(team.isActive()).isFalse();
  }

  private static List<Class<?>> types(List<TeamEvent> events) {
    return events.stream().<Class<?>>map(Object::getClass).toList();
  }
}
