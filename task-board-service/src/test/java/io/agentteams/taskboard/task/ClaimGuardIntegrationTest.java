package io.agentteams.taskboard.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.taskboard.TaskClaimed;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import io.agentteams.taskboard.task.domain.Actor;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.agentteams.taskboard.task.web.TaskView;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * The claim statement's guard (SQL, so racing claims are decided by the row lock) holds {@code
 * Task.claim}'s rule: on tasks in every status, reserved or not, at the current or a stale
 * revision, it claims exactly the tasks the aggregate would let the member claim, with the same
 * result, and writes a {@code TaskClaimed} event for exactly those.
 */
@TaskBoardServiceTest
class ClaimGuardIntegrationTest {

  @Autowired BoardFixture board;
  @Autowired TaskStore store;
  @Autowired TransactionalOperator transactions;
  @Autowired EventCodec codec;

  @Test
  void theClaimStatementClaimsExactlyTheTasksTheAggregateWouldLetTheMemberClaim() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana", "ben");
    Map<String, TaskView> tasks = tasksInEveryStatus(team);
    assertThat(tasks.values())
        .extracting(TaskView::status)
        .contains(
            "ready",
            "pending",
            "blocked",
            "in_progress",
            "completed",
            "failed",
            "cancelled",
            "deleted",
            "awaiting_approval");

    int eventsOfSetUp = board.events(team).size();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    List<Task> stored = new ArrayList<>();
    for (TaskView view : tasks.values()) {
      stored.add(store.find(team.id(), TaskId.of(view.id())).block(Duration.ofSeconds(10)));
    }
    int allowed = 0;
    for (String member : List.of("lead", "ana", "ben")) {
      for (long staleBy : List.of(0L, 1L)) {
        List<TaskStore.ClaimAttempt> attempts =
            stored.stream()
                .map(t -> new TaskStore.ClaimAttempt(t.id(), member, t.revision() - staleBy))
                .toList();
        Map<TaskId, Task> expected = new LinkedHashMap<>();
        for (Task task : stored) {
          Actor.Member actor = new Actor.Member(member, member.equals("lead"));
          try {
            expected.put(task.id(), task.claim(actor, task.revision() - staleBy, now));
          } catch (RuntimeException refused) {
            // The aggregate refuses: the statement must not claim it either.
          }
        }
        allowed += expected.size();

        List<Task> claimed = claimRolledBack(team, attempts, now);

        assertThat(claimed)
            .as("claimed by %s at revisions stale by %d", member, staleBy)
            .extracting(Task::id)
            .containsExactlyInAnyOrderElementsOf(expected.keySet());
        for (Task task : claimed) {
          Task decided = Objects.requireNonNull(expected.get(task.id()));
          assertThat(task.status()).isEqualTo(decided.status());
          assertThat(task.owner()).isEqualTo(decided.owner());
          assertThat(task.revision()).isEqualTo(decided.revision());
          assertThat(task.claim().claimedAt()).isEqualTo(decided.claim().claimedAt());
          assertThat(task.claim().heartbeatCount()).isEqualTo(decided.claim().heartbeatCount());
        }
      }
    }
    // The cases include claims the aggregate allows (unowned and reserved), so the check has teeth.
    assertThat(allowed).isGreaterThanOrEqualTo(3);

    List<TaskStore.ClaimAttempt> committed =
        stored.stream().map(t -> new TaskStore.ClaimAttempt(t.id(), "ana", t.revision())).toList();
    List<Task> claimed =
        store
            .claim(
                team.id(),
                committed,
                now,
                team.ownerId(),
                a ->
                    TaskEvents.claimed(
                        team.id(), a.id(), a.member(), now, a.expectedRevision() + 1))
            .collectList()
            .block(Duration.ofSeconds(10));
    List<BoardFixture.Event> written = board.events(team);
    List<TaskClaimed> events =
        written.subList(eventsOfSetUp, written.size()).stream()
            .map(e -> e.data(codec, TaskClaimed.class))
            .toList();
    assertThat(claimed).isNotEmpty();
    assertThat(events)
        .extracting(TaskClaimed::taskId)
        .containsExactlyInAnyOrderElementsOf(claimed.stream().map(t -> t.id().value()).toList());
    assertThat(events).extracting(TaskClaimed::member).containsOnly("ana");
  }

  /** Tries the claims in one statement and rolls it back, so every batch sees the same tasks. */
  private List<Task> claimRolledBack(
      Team team, List<TaskStore.ClaimAttempt> attempts, Instant now) {
    return transactions
        .execute(
            tx -> {
              tx.setRollbackOnly();
              return store.claim(
                  team.id(),
                  attempts,
                  now,
                  team.ownerId(),
                  a ->
                      TaskEvents.claimed(
                          team.id(), a.id(), a.member(), now, a.expectedRevision() + 1));
            })
        .collectList()
        .block(Duration.ofSeconds(10));
  }

  /** One or more tasks in each status, some reserved for a member, built through the API. */
  private Map<String, TaskView> tasksInEveryStatus(Team team) {
    Map<String, TaskView> tasks = new LinkedHashMap<>();
    tasks.put("ready", board.create(team, "ana", "ready"));
    TaskView reserved = board.create(team, "ana", "reserved for ana");
    tasks.put(
        "reserved for ana",
        board.done(
            board.transition(
                team, "lead", reserved.id(), "reassign", reserved.revision(), "member", "ana")));
    TaskView reservedForBen = board.create(team, "ana", "reserved for ben");
    tasks.put(
        "reserved for ben",
        board.done(
            board.transition(
                team,
                "lead",
                reservedForBen.id(),
                "reassign",
                reservedForBen.revision(),
                "member",
                "ben")));
    TaskView open = board.create(team, "ana", "dependency in progress");
    tasks.put("in progress", board.claimed(team, "ben", open));
    tasks.put("pending", board.create(team, "ana", "pending", open.id()));
    TaskView done = board.claimed(team, "ben", board.create(team, "ana", "completed"));
    tasks.put(
        "completed",
        board.done(board.transition(team, "ben", done.id(), "complete", done.revision())));
    TaskView failing = board.claimed(team, "ben", board.create(team, "ana", "failed"));
    TaskView failed =
        board.done(
            board.transition(team, "ben", failing.id(), "fail", failing.revision(), "error", "x"));
    tasks.put("failed", failed);
    tasks.put("blocked", board.create(team, "ana", "blocked", failed.id()));
    TaskView cancelling = board.create(team, "ana", "cancelled");
    tasks.put(
        "cancelled",
        board
            .outcome(
                board
                    .as(team, "lead")
                    .patch()
                    .uri(BoardFixture.task(team, cancelling.id()))
                    .bodyValue(
                        Map.of("expected_revision", cancelling.revision(), "status", "cancelled"))
                    .exchange())
            .task());
    TaskView deleting = board.create(team, "ana", "deleted");
    tasks.put(
        "deleted",
        board
            .outcome(
                board
                    .as(team, "lead")
                    .delete()
                    .uri(
                        BoardFixture.task(team, deleting.id())
                            + "?expected_revision="
                            + deleting.revision())
                    .exchange())
            .task());
    tasks.put("awaiting approval", heldTask(team));
    return tasks;
  }

  private TaskView heldTask(Team team) {
    return board
        .as(team, "lead")
        .post()
        .uri("/api/v1/teams/" + team.id() + "/plans")
        .bodyValue(Map.of("tasks", List.of(Map.of("title", "held")), "require_approval", true))
        .exchange()
        .expectStatus()
        .isCreated()
        .expectBody(io.agentteams.taskboard.plan.web.PlanController.ImportView.class)
        .returnResult()
        .getResponseBody()
        .tasks()
        .get(0);
  }
}
