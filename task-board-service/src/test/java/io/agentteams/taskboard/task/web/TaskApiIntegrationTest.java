package io.agentteams.taskboard.task.web;

import static io.agentteams.taskboard.BoardFixture.task;
import static io.agentteams.taskboard.BoardFixture.tasks;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.taskboard.TaskBecameReady;
import io.agentteams.contracts.taskboard.TaskBlocked;
import io.agentteams.contracts.taskboard.TaskCompleted;
import io.agentteams.contracts.taskboard.TaskCreated;
import io.agentteams.contracts.taskboard.TaskDeleted;
import io.agentteams.contracts.taskboard.TaskFailed;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

@TaskBoardServiceTest
class TaskApiIntegrationTest {

  @Autowired BoardFixture board;
  @Autowired EventCodec codec;
  @Autowired WebTestClient web;

  @Test
  void aStaleRevisionIsRefusedWithTheCurrentTaskAsTheBody() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView created = board.create(team, "lead", "Draft the outline");
    board.done(
        board
            .as(team, "lead")
            .patch()
            .uri(task(team, created.id()))
            .bodyValue(Map.of("expected_revision", 1, "title", "Draft the outline, v2"))
            .exchange());

    board
        .as(team, "lead")
        .patch()
        .uri(task(team, created.id()))
        .bodyValue(Map.of("expected_revision", 1, "title", "A stale edit"))
        .exchange()
        .expectStatus()
        .isEqualTo(409)
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("stale-revision")
        .jsonPath("$.current.title")
        .isEqualTo("Draft the outline, v2")
        .jsonPath("$.current.revision")
        .isEqualTo(2);
    assertThat(board.read(team, "ana", created.id()).title()).isEqualTo("Draft the outline, v2");
  }

  @Test
  void everyChangeMustCarryAnExpectedRevision() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView created = board.create(team, "ana", "Anything");

    board
        .as(team, "ana")
        .post()
        .uri(task(team, created.id()) + "/claim")
        .bodyValue(Map.of())
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("missing-expected-revision");
    board
        .as(team, "lead")
        .delete()
        .uri(task(team, created.id()))
        .exchange()
        .expectStatus()
        .isBadRequest();
  }

  @Test
  void deletedTasksStayAsTombstonesAndTheirIdsAreNeverReused() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView first = board.create(team, "lead", "One");
    TaskView second = board.create(team, "lead", "Two");
    TaskView third = board.create(team, "lead", "Three");

    board.done(
        board
            .as(team, "lead")
            .delete()
            .uri(task(team, third.id()) + "?expected_revision=1")
            .exchange());
    board.done(
        board
            .as(team, "lead")
            .delete()
            .uri(task(team, second.id()) + "?expected_revision=1")
            .exchange());
    TaskView fourth = board.create(team, "lead", "Four");

    assertThat(List.of(first.id(), second.id(), third.id(), fourth.id()))
        .containsExactly(1L, 2L, 3L, 4L);
    TaskView tombstone = board.read(team, "ana", third.id());
    assertThat(tombstone.deleted()).isTrue();
    assertThat(tombstone.status()).isEqualTo("deleted");
    assertThat(tombstone.deletedBy()).isEqualTo("lead");
    assertThat(tombstone.title()).isEqualTo("Three");
    assertThat(listIds(team, "")).containsExactly(1L, 4L);
    assertThat(listIds(team, "?include_deleted=true")).containsExactly(1L, 2L, 3L, 4L);
    board
        .transition(team, "ana", third.id(), "claim", tombstone.revision())
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("task-deleted")
        .jsonPath("$.current.deleted")
        .isEqualTo(true);
    assertThat(board.events(team, TaskDeleted.TYPE, TaskDeleted.class))
        .extracting(TaskDeleted::taskId)
        .containsExactly(3L, 2L);
  }

  @Test
  void idsStayMonotonicWhenTheNewestTasksAreDeletedAndWhenACreateIsRefused() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    for (int i = 0; i < 3; i++) {
      board.create(team, "lead", "Task " + i);
    }
    for (long id = 3; id >= 1; id--) {
      board.done(
          board.as(team, "lead").delete().uri(task(team, id) + "?expected_revision=1").exchange());
    }
    board
        .as(team, "lead")
        .post()
        .uri(tasks(team))
        .bodyValue(Map.of("title", "depends on a tombstone", "dependencies", List.of(2)))
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("unknown-dependency")
        .jsonPath("$.detail")
        .isEqualTo("dependency 2 was deleted");

    TaskView next = board.create(team, "lead", "After everything was deleted");

    assertThat(next.id()).isEqualTo(4);
    assertThat(
            board.count(
                "SELECT next_task_id FROM board WHERE team_id = :team", Map.of("team", team.id())))
        .isEqualTo(5);
  }

  @Test
  void completingATaskMakesItsDependentsReadyInTheSameTransactionAndTheirEventsSaySo() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana", "ben");
    TaskView research = board.create(team, "lead", "Research");
    TaskView outline = board.create(team, "lead", "Outline");
    TaskView draft = board.create(team, "lead", "Draft", research.id(), outline.id());
    TaskView review = board.create(team, "lead", "Review", draft.id());
    assertThat(draft.status()).isEqualTo("pending");

    TaskView claimedResearch = board.claimed(team, "ana", research);
    board.done(
        board.transition(
            team, "ana", research.id(), "complete", claimedResearch.revision(), "result", "notes"));
    assertThat(board.read(team, "ben", draft.id()).status()).isEqualTo("pending");
    TaskView claimedOutline = board.claimed(team, "ben", outline);
    OutcomeView completion =
        BoardFixture.outcome(
            board.transition(
                team,
                "ben",
                outline.id(),
                "complete",
                claimedOutline.revision(),
                "result",
                "1. 2. 3."));

    assertThat(completion.effects())
        .singleElement()
        .satisfies(
            effect -> {
              assertThat(effect.taskId()).isEqualTo(draft.id());
              assertThat(effect.status()).isEqualTo("ready");
            });
    assertThat(board.read(team, "ana", draft.id()).status()).isEqualTo("ready");
    assertThat(board.read(team, "ana", review.id()).status()).isEqualTo("pending");
    List<BoardFixture.Event> events = board.events(team);
    BoardFixture.Event completed =
        events.stream()
            .filter(e -> e.type().equals(TaskCompleted.TYPE))
            .reduce((a, b) -> b)
            .orElseThrow();
    assertThat(completed.data(codec, TaskCompleted.class).nowReady()).containsExactly(draft.id());
    BoardFixture.Event ready = events.get(events.indexOf(completed) + 1);
    assertThat(ready.type()).isEqualTo(TaskBecameReady.TYPE);
    TaskBecameReady readyEvent = ready.data(codec, TaskBecameReady.class);
    assertThat(readyEvent.taskId()).isEqualTo(draft.id());
    assertThat(readyEvent.cause()).isEqualTo("completed");
    assertThat(readyEvent.causeTaskId()).isEqualTo(outline.id());
    assertThat(ready.sequence()).isEqualTo(board.read(team, "ana", draft.id()).revision());
  }

  @Test
  void failingATaskBlocksItsDependentsTransitivelyWithTheReason() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView fetch = board.create(team, "lead", "Fetch data");
    TaskView analyse = board.create(team, "lead", "Analyse", fetch.id());
    TaskView report = board.create(team, "lead", "Report", analyse.id());
    TaskView claimed = board.claimed(team, "ana", fetch);

    OutcomeView failure =
        BoardFixture.outcome(
            board.transition(
                team, "ana", fetch.id(), "fail", claimed.revision(), "error", "403 from the API"));

    assertThat(failure.task().status()).isEqualTo("failed");
    assertThat(failure.task().error()).isEqualTo("403 from the API");
    TaskView blocked = board.read(team, "ana", report.id());
    assertThat(blocked.status()).isEqualTo("blocked");
    assertThat(blocked.blockedReason()).isEqualTo("dependency_blocked");
    assertThat(blocked.blockedBy()).isEqualTo(analyse.id());
    assertThat(board.read(team, "ana", analyse.id()).blockedDetail())
        .isEqualTo("dependency " + fetch.id() + " failed");
    assertThat(board.events(team, TaskFailed.TYPE, TaskFailed.class).get(0).nowBlocked())
        .containsExactlyInAnyOrder(analyse.id(), report.id());
    assertThat(board.events(team, TaskBlocked.TYPE, TaskBlocked.class))
        .extracting(TaskBlocked::taskId, TaskBlocked::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(analyse.id(), "dependency_failed"),
            org.assertj.core.groups.Tuple.tuple(report.id(), "dependency_blocked"));
  }

  @Test
  void aDependencyChangeThatWouldCloseACycleIsRefusedNamingTheCycle() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView a = board.create(team, "lead", "A");
    TaskView b = board.create(team, "lead", "B", a.id());
    TaskView c = board.create(team, "lead", "C", b.id());

    board
        .as(team, "lead")
        .patch()
        .uri(task(team, a.id()))
        .bodyValue(Map.of("expected_revision", a.revision(), "dependencies", List.of(c.id())))
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("dependency-cycle")
        .jsonPath("$.cycle")
        .isEqualTo(List.of(1, 3, 2, 1))
        .jsonPath("$.detail")
        .isEqualTo("the dependencies would form a cycle: 1 -> 3 -> 2 -> 1");
    assertThat(board.read(team, "lead", a.id()).revision()).isEqualTo(a.revision());
  }

  @Test
  void overlappingWriteScopesAreWarnedAboutNeverRefused() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView api =
        BoardFixture.created(
            board
                .as(team, "lead")
                .post()
                .uri(tasks(team))
                .bodyValue(Map.of("title", "API", "write_scopes", List.of("./src//api/", "docs")))
                .exchange());
    assertThat(api.writeScopes()).containsExactly("/docs", "/src/api");

    OutcomeView second =
        board
            .as(team, "lead")
            .post()
            .uri(tasks(team))
            .bodyValue(Map.of("title", "Whole src", "write_scopes", List.of("src")))
            .exchange()
            .expectStatus()
            .isCreated()
            .expectBody(OutcomeView.class)
            .returnResult()
            .getResponseBody();

    assertThat(second.warnings())
        .singleElement()
        .satisfies(
            warning -> {
              assertThat(warning.kind()).isEqualTo("write_scope_overlap");
              assertThat(warning.scope()).isEqualTo("/src");
              assertThat(warning.otherTaskId()).isEqualTo(api.id());
              assertThat(warning.otherScope()).isEqualTo("/src/api");
            });
    TaskCreated event = board.events(team, TaskCreated.TYPE, TaskCreated.class).get(1);
    assertThat(event.warnings()).hasSize(1);
    OutcomeView claim =
        BoardFixture.outcome(board.transition(team, "ana", second.task().id(), "claim", 1));
    assertThat(claim.warnings())
        .extracting(OutcomeView.WarningView::otherTaskId)
        .containsExactly(api.id());
  }

  @Test
  void aTooLongTitleIsRefusedNamingTheLimitAndNothingIsWritten() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");

    board
        .as(team, "ana")
        .post()
        .uri(tasks(team))
        .bodyValue(Map.of("title", "t".repeat(201)))
        .exchange()
        .expectStatus()
        .isEqualTo(422)
        .expectBody()
        .jsonPath("$.limit")
        .isEqualTo("task.title.max-chars")
        .jsonPath("$.max")
        .isEqualTo(200);

    assertThat(listIds(team, "")).isEmpty();
    assertThat(board.create(team, "ana", "Fits").id()).isEqualTo(1);
    assertThat(board.events(team)).hasSize(1);
  }

  @Test
  void refusesRequestsWithoutAValidInternalTokenAndUnknownTeams() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    web.get().uri(tasks(team)).exchange().expectStatus().isUnauthorized();
    Team unknown = new Team(java.util.UUID.randomUUID(), "alice", List.of("lead"));
    board.as(unknown, "lead").get().uri(tasks(unknown)).exchange().expectStatus().isNotFound();
    board.as(team, "lead").get().uri(task(team, 999)).exchange().expectStatus().isNotFound();
  }

  @Test
  void exposesHealthProbesAndClaimMetrics() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    board.claimed(team, "ana", board.create(team, "ana", "Measured"));

    web.get()
        .uri("/actuator/health/readiness")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.status")
        .isEqualTo("UP");
    String metrics =
        web.get()
            .uri("/actuator/prometheus")
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(String.class)
            .returnResult()
            .getResponseBody();
    assertThat(metrics)
        .contains(
            "agentteams_taskboard_claim_seconds_count{outcome=\"done\"",
            "agentteams_taskboard_board_lock_wait_seconds",
            "service=\"task-board-service\"");
  }

  private List<Long> listIds(Team team, String query) {
    return board
        .as(team, "ana")
        .get()
        .uri(tasks(team) + query)
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(TaskPageView.class)
        .returnResult()
        .getResponseBody()
        .items()
        .stream()
        .map(TaskView::id)
        .toList();
  }
}
