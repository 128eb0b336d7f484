package io.agentteams.taskboard.plan.web;

import static io.agentteams.taskboard.BoardFixture.tasks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.agentteams.contracts.taskboard.PlanApproved;
import io.agentteams.contracts.taskboard.PlanImported;
import io.agentteams.contracts.taskboard.PlanRename;
import io.agentteams.contracts.taskboard.TaskBecameReady;
import io.agentteams.contracts.taskboard.TaskCreated;
import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import io.agentteams.taskboard.task.web.TaskView;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec;

@TaskBoardServiceTest
class PlanImportIntegrationTest {

  @Autowired BoardFixture board;

  private static String plans(Team team) {
    return "/api/v1/teams/" + team.id() + "/plans";
  }

  private static Map<String, Object> planTask(String id, String title, List<String> dependencies) {
    Map<String, Object> task = new HashMap<>();
    if (id != null) {
      task.put("id", id);
    }
    task.put("title", title);
    task.put("dependencies", dependencies);
    return task;
  }

  private ResponseSpec importPlan(
      Team team, String member, boolean hold, List<Map<String, Object>> tasks) {
    return board
        .as(team, member)
        .post()
        .uri(plans(team))
        .bodyValue(Map.of("tasks", tasks, "require_approval", hold))
        .exchange();
  }

  private PlanController.ImportView imported(ResponseSpec response) {
    return response
        .expectStatus()
        .isCreated()
        .expectBody(PlanController.ImportView.class)
        .returnResult()
        .getResponseBody();
  }

  @Test
  void normalisesIdsAndDependenciesAndImportsEveryTaskAtOnce() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    board.create(team, "ana", "Already on the board");

    PlanController.ImportView result =
        imported(
            importPlan(
                team,
                "ana",
                false,
                List.of(
                    planTask("Research Phase", "Research", List.of()),
                    planTask(null, "Gather figures", List.of()),
                    planTask("Draft", "First draft", List.of("research phase", " Task_2 ")),
                    planTask("draft", "Second draft", List.of("DRAFT")),
                    planTask("Review!!", "Review", List.of("draft_2", "Draft", "draft")))));

    assertThat(result.plan().status()).isEqualTo("imported");
    assertThat(result.plan().tasks())
        .extracting(PlanController.EntryView::key, PlanController.EntryView::taskId)
        .containsExactly(
            tuple("research_phase", 2L),
            tuple("task_2", 3L),
            tuple("draft", 4L),
            tuple("draft_2", 5L),
            tuple("review", 6L));
    assertThat(result.plan().renamed())
        .extracting(
            PlanController.RenameView::original,
            PlanController.RenameView::key,
            PlanController.RenameView::reason)
        .containsExactly(
            tuple("Research Phase", "research_phase", "normalised"),
            tuple("Draft", "draft", "normalised"),
            tuple("draft", "draft_2", "duplicate"),
            tuple("Review!!", "review", "normalised"));
    assertThat(result.plan().generated()).containsExactly("task_2");
    assertThat(result.tasks())
        .extracting(TaskView::id, TaskView::dependencies, TaskView::status)
        .containsExactly(
            tuple(2L, List.of(), "ready"),
            tuple(3L, List.of(), "ready"),
            tuple(4L, List.of(2L, 3L), "pending"),
            tuple(5L, List.of(4L), "pending"),
            tuple(6L, List.of(4L, 5L), "pending"));

    List<BoardFixture.Event> events = board.events(team);
    assertThat(events)
        .extracting(BoardFixture.Event::type)
        .endsWith(
            TaskCreated.TYPE,
            TaskCreated.TYPE,
            TaskCreated.TYPE,
            TaskCreated.TYPE,
            TaskCreated.TYPE,
            PlanImported.TYPE);
    PlanImported event = board.events(team, PlanImported.TYPE, PlanImported.class).get(0);
    assertThat(event.awaitingApproval()).isFalse();
    assertThat(event.renamed()).contains(new PlanRename("draft", "draft_2", "duplicate"));
    assertThat(event.generated()).containsExactly("task_2");
  }

  @Test
  void aPlanWithACycleIsRefusedNamingItAndNothingIsWritten() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");

    importPlan(
            team,
            "ana",
            false,
            List.of(
                planTask("write", "Write", List.of("Review")),
                planTask("review", "Review", List.of("edit")),
                planTask("edit", "Edit", List.of("write"))))
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("dependency-cycle")
        .jsonPath("$.cycle")
        .isEqualTo(List.of("write", "review", "edit", "write"));
    importPlan(team, "ana", false, List.of(planTask("a", "A", List.of("ghost"))))
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("unknown-plan-dependency");
    importPlan(
            team,
            "ana",
            false,
            List.of(
                planTask("ok", "Fine", List.of()), planTask("long", "t".repeat(201), List.of())))
        .expectStatus()
        .isEqualTo(422);

    assertThat(board.events(team)).isEmpty();
    assertThat(board.create(team, "ana", "First real task").id()).isEqualTo(1);
  }

  @Test
  void onlyTheLeadPlansWorkForOtherMembers() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana", "ben");
    Map<String, Object> forBen = planTask("a", "For ben", List.of());
    forBen.put("assignee", "ben");

    importPlan(team, "ana", false, List.of(planTask("mine", "Mine", List.of()), forBen))
        .expectStatus()
        .isForbidden()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("lead-only");
    PlanController.ImportView byLead = imported(importPlan(team, "lead", false, List.of(forBen)));

    assertThat(byLead.tasks())
        .extracting(TaskView::id, TaskView::owner)
        .containsExactly(tuple(1L, "ben"));
  }

  @Test
  void aHeldPlanWaitsForTheOwnersApprovalBeforeItsTasksCanBeClaimed() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    PlanController.ImportView held =
        imported(
            importPlan(
                team,
                "lead",
                true,
                List.of(
                    planTask("spec", "Spec", List.of()),
                    planTask("build", "Build", List.of("spec")))));
    assertThat(held.plan().status()).isEqualTo("awaiting_approval");
    assertThat(held.tasks()).extracting(TaskView::status).containsOnly("awaiting_approval");
    TaskView spec = held.tasks().get(0);
    String approve = plans(team) + "/" + held.plan().id() + "/approve";

    board
        .transition(team, "ana", spec.id(), "claim", spec.revision())
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("task-not-ready")
        .jsonPath("$.current.status")
        .isEqualTo("awaiting_approval");
    board
        .as(team, "lead")
        .post()
        .uri(approve)
        .bodyValue(Map.of("expected_revision", 1))
        .exchange()
        .expectStatus()
        .isForbidden()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("owner-only");
    board
        .asOwner(team)
        .post()
        .uri(approve)
        .bodyValue(Map.of("expected_revision", 7))
        .exchange()
        .expectStatus()
        .isEqualTo(409);
    assertThat(board.read(team, "ana", spec.id()).status()).isEqualTo("awaiting_approval");

    PlanController.ApprovalView approved =
        board
            .asOwner(team)
            .post()
            .uri(approve)
            .bodyValue(Map.of("expected_revision", 1))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(PlanController.ApprovalView.class)
            .returnResult()
            .getResponseBody();

    assertThat(approved.plan().status()).isEqualTo("approved");
    assertThat(approved.plan().approvedBy()).isEqualTo("alice");
    assertThat(approved.nowReady()).containsExactly(spec.id());
    assertThat(approved.tasks()).extracting(TaskView::status).containsExactly("ready", "pending");
    TaskView claimed = board.claimed(team, "ana", board.read(team, "ana", spec.id()));
    assertThat(claimed.status()).isEqualTo("in_progress");
    board
        .asOwner(team)
        .post()
        .uri(approve)
        .bodyValue(Map.of("expected_revision", 2))
        .exchange()
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("plan-not-awaiting-approval");
    PlanApproved event = board.events(team, PlanApproved.TYPE, PlanApproved.class).get(0);
    assertThat(event.nowReady()).containsExactly(spec.id());
    assertThat(event.approvedBy()).isEqualTo("alice");
    assertThat(board.events(team, TaskBecameReady.TYPE, TaskBecameReady.class))
        .extracting(TaskBecameReady::taskId, TaskBecameReady::cause)
        .containsExactly(tuple(spec.id(), "plan_approved"));
  }

  @Test
  void aPlanLargerThanTheLimitIsRefusedNamingIt() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    List<Map<String, Object>> tooMany =
        java.util.stream.IntStream.range(0, 101)
            .mapToObj(i -> planTask(null, "T" + i, List.of()))
            .toList();

    importPlan(team, "ana", false, tooMany)
        .expectStatus()
        .isEqualTo(422)
        .expectBody()
        .jsonPath("$.limit")
        .isEqualTo("plan.max-tasks");
    board
        .as(team, "ana")
        .get()
        .uri(tasks(team))
        .exchange()
        .expectBody()
        .jsonPath("$.items.length()")
        .isEqualTo(0);
  }
}
