package io.agentteams.taskboard.task.web;

import static io.agentteams.taskboard.BoardFixture.task;
import static io.agentteams.taskboard.BoardFixture.tasks;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.Caller;
import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Who may do what, from the roster projection: any member creates, reads and claims a ready unowned
 * task; the task's owner or the lead edits and transitions it; only the lead assigns to another
 * member; the team's owner reads; everyone else is refused.
 */
@TaskBoardServiceTest
class TaskPermissionsIntegrationTest {

  @Autowired BoardFixture board;

  @Test
  void anyMemberCreatesReadsAndClaimsAReadyUnownedTask() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana", "ben");

    TaskView created = board.create(team, "ana", "Collect sources");
    assertThat(created.createdBy()).isEqualTo("ana");
    assertThat(created.owner()).isNull();
    assertThat(board.read(team, "ben", created.id()).status()).isEqualTo("ready");

    TaskView claimed = board.claimed(team, "ben", created);

    assertThat(claimed.status()).isEqualTo("in_progress");
    assertThat(claimed.owner()).isEqualTo("ben");
    board
        .transition(team, "ana", created.id(), "claim", claimed.revision())
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("task-owned")
        .jsonPath("$.current.owner")
        .isEqualTo("ben");
  }

  @Test
  void onlyTheTasksOwnerOrTheLeadEditsAndTransitionsIt() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana", "ben");
    TaskView claimed = board.claimed(team, "ana", board.create(team, "ben", "Write intro"));

    for (String action : new String[] {"release", "complete", "fail"}) {
      board
          .transition(team, "ben", claimed.id(), action, claimed.revision(), "error", "x")
          .expectStatus()
          .isForbidden()
          .expectBody()
          .jsonPath("$.code")
          .isEqualTo("not-task-owner")
          .jsonPath("$.current.owner")
          .isEqualTo("ana");
    }
    board
        .as(team, "ben")
        .patch()
        .uri(task(team, claimed.id()))
        .bodyValue(Map.of("expected_revision", claimed.revision(), "title", "Hijacked"))
        .exchange()
        .expectStatus()
        .isForbidden();
    board
        .as(team, "ben")
        .delete()
        .uri(task(team, claimed.id()) + "?expected_revision=" + claimed.revision())
        .exchange()
        .expectStatus()
        .isForbidden();

    TaskView edited =
        board.done(
            board
                .as(team, "ana")
                .patch()
                .uri(task(team, claimed.id()))
                .bodyValue(
                    Map.of("expected_revision", claimed.revision(), "title", "Write the intro"))
                .exchange());
    TaskView editedByLead =
        board.done(
            board
                .as(team, "lead")
                .patch()
                .uri(task(team, claimed.id()))
                .bodyValue(
                    Map.of("expected_revision", edited.revision(), "description", "Two pages"))
                .exchange());
    TaskView completedByLead =
        board.done(
            board.transition(team, "lead", claimed.id(), "complete", editedByLead.revision()));

    assertThat(completedByLead.title()).isEqualTo("Write the intro");
    assertThat(completedByLead.status()).isEqualTo("completed");
    assertThat(completedByLead.owner()).isEqualTo("ana");
  }

  @Test
  void onlyTheLeadAssignsATaskToAnotherMember() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana", "ben");
    TaskView task = board.create(team, "ana", "Proofread");

    board
        .transition(team, "ana", task.id(), "reassign", task.revision(), "member", "ben")
        .expectStatus()
        .isForbidden()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("lead-only");
    board
        .as(team, "ana")
        .post()
        .uri(tasks(team))
        .bodyValue(Map.of("title", "For ben", "owner", "ben"))
        .exchange()
        .expectStatus()
        .isForbidden();
    board
        .transition(team, "lead", task.id(), "reassign", task.revision(), "member", "nobody")
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("unknown-member");

    TaskView assigned =
        board.done(
            board.transition(
                team, "lead", task.id(), "reassign", task.revision(), "member", "ben"));
    TaskView reservedForAna =
        BoardFixture.created(
            board
                .as(team, "ana")
                .post()
                .uri(tasks(team))
                .bodyValue(Map.of("title", "Mine", "owner", "ana"))
                .exchange());

    assertThat(assigned.owner()).isEqualTo("ben");
    assertThat(reservedForAna.owner()).isEqualTo("ana");
    board
        .transition(team, "ana", task.id(), "claim", assigned.revision())
        .expectStatus()
        .isEqualTo(409);
    assertThat(board.claimed(team, "ben", assigned).owner()).isEqualTo("ben");
  }

  @Test
  void aCallerWhoIsNotOnTheRosterIsRefused() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    Team sibling = board.teamWithLeadAndMembers("alice", "boss", "zoe");
    TaskView task = board.create(team, "ana", "Secret");

    WebTestClient stranger = board.as(team, "mallory");
    stranger
        .get()
        .uri(tasks(team))
        .exchange()
        .expectStatus()
        .isForbidden()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("not-a-member");
    stranger
        .post()
        .uri(tasks(team))
        .bodyValue(Map.of("title", "Intrusion"))
        .exchange()
        .expectStatus()
        .isForbidden();
    BoardFixture.transition(stranger, team, task.id(), "claim", task.revision())
        .expectStatus()
        .isForbidden();

    WebTestClient memberOfSibling =
        board.client(new Caller.Member("alice", sibling.id(), "zoe", null));
    // Another team's member token learns no more than another owner's: not found.
    memberOfSibling.get().uri(tasks(team)).exchange().expectStatus().isNotFound();
    WebTestClient anotherOwnersMember =
        board.client(new Caller.Member("mallory", team.id(), "ana", null));
    anotherOwnersMember.get().uri(tasks(team)).exchange().expectStatus().isNotFound();
    WebTestClient worker = board.client(new Caller.Worker("alice", "agent-0"));
    worker.get().uri(tasks(team)).exchange().expectStatus().isForbidden();

    assertThat(board.read(team, "ana", task.id()).revision()).isEqualTo(1);
  }

  @Test
  void theTeamsOwnerReadsTheBoardAndCreatesTasksButDoesNotClaim() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView task = board.create(team, "ana", "Visible to alice");

    board
        .asOwner(team)
        .get()
        .uri(task(team, task.id()))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.title")
        .isEqualTo("Visible to alice");
    board
        .asOwner(team)
        .post()
        .uri(tasks(team))
        .bodyValue(Map.of("title", "Owner task"))
        .exchange()
        .expectStatus()
        .isCreated()
        .expectBody()
        .jsonPath("$.task.created_by")
        .isEqualTo("owner");
    BoardFixture.transition(board.asOwner(team), team, task.id(), "claim", task.revision())
        .expectStatus()
        .isForbidden();
    board
        .client(new Caller.Owner("mallory"))
        .get()
        .uri(tasks(team))
        .exchange()
        .expectStatus()
        .isNotFound();
    board
        .client(new Caller.Owner("alice"))
        .get()
        .uri("/api/v1/teams/" + UUID.randomUUID() + "/tasks")
        .exchange()
        .expectStatus()
        .isNotFound();
  }
}
