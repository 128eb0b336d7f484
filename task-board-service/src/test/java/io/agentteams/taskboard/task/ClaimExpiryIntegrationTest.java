package io.agentteams.taskboard.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.taskboard.TaskClaimExpired;
import io.agentteams.platform.test.TestClock;
import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import io.agentteams.taskboard.task.application.ClaimSweeper;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.web.TaskController;
import io.agentteams.taskboard.task.web.TaskView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/**
 * Claims whose heartbeats stop are recovered after the team's claim time-out, by sweepers that may
 * run on several replicas at once; the recovered claimant no longer owns the task. Time is moved
 * with the test clock, never waited for.
 */
@TaskBoardServiceTest
class ClaimExpiryIntegrationTest {

  @Autowired BoardFixture board;
  @Autowired TestClock clock;
  @Autowired ClaimSweeper sweeper;

  private Team teamWithClaimTimeout(long seconds) {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana", "ben");
    TaskController.SettingsView settings =
        board
            .as(team, "lead")
            .put()
            .uri(BoardFixture.tasks(team) + "/settings")
            .bodyValue(Map.of("expected_revision", 1, "claim_timeout_seconds", seconds))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(TaskController.SettingsView.class)
            .returnResult()
            .getResponseBody();
    assertThat(settings.effectiveClaimTimeoutSeconds()).isEqualTo(seconds);
    return team;
  }

  private List<Task> sweep() {
    return sweeper.sweepOnce().block(Duration.ofSeconds(30));
  }

  @Test
  void aClaimantWhoseClaimExpiredCanNeitherHeartbeatNorComplete() {
    Team team = teamWithClaimTimeout(10);
    TaskView claimed = board.claimed(team, "ana", board.create(team, "lead", "Long job"));
    TaskView beating =
        board.done(
            board.transition(
                team,
                "ana",
                claimed.id(),
                "heartbeat",
                claimed.revision(),
                "phase",
                "reading",
                "percent",
                40));
    assertThat(beating.heartbeatCount()).isEqualTo(1);
    assertThat(beating.percent()).isEqualTo(40);

    clock.advance(Duration.ofSeconds(11));
    assertThat(sweep()).extracting(t -> t.id().value()).contains(claimed.id());

    TaskView recovered = board.read(team, "lead", claimed.id());
    assertThat(recovered.status()).isEqualTo("ready");
    assertThat(recovered.owner()).isNull();
    TaskClaimExpired expired =
        board.events(team, TaskClaimExpired.TYPE, TaskClaimExpired.class).get(0);
    assertThat(expired.member()).isEqualTo("ana");
    assertThat(expired.status()).isEqualTo("ready");
    assertThat(expired.claimTimeoutSeconds()).isEqualTo(10);

    for (long revision : new long[] {beating.revision(), recovered.revision()}) {
      board
          .transition(team, "ana", claimed.id(), "heartbeat", revision)
          .expectStatus()
          .isForbidden()
          .expectBody()
          .jsonPath("$.code")
          .isEqualTo("not-task-owner")
          .jsonPath("$.current.status")
          .isEqualTo("ready");
      board
          .transition(team, "ana", claimed.id(), "complete", revision, "result", "too late")
          .expectStatus()
          .isForbidden();
    }
    TaskView reclaimed = board.claimed(team, "ben", recovered);
    board
        .transition(team, "ana", claimed.id(), "complete", reclaimed.revision(), "result", "mine!")
        .expectStatus()
        .isForbidden()
        .expectBody()
        .jsonPath("$.current.owner")
        .isEqualTo("ben");
    TaskView completed =
        board.done(
            board.transition(
                team, "ben", claimed.id(), "complete", reclaimed.revision(), "result", "done"));
    assertThat(completed.result()).isEqualTo("done");
  }

  @Test
  void heartbeatsKeepAClaimAliveAndEachTeamHasItsOwnTimeOut() {
    Team quick = teamWithClaimTimeout(10);
    Team patient = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView kept = board.claimed(quick, "ana", board.create(quick, "lead", "Kept alive"));
    TaskView dropped = board.claimed(quick, "ben", board.create(quick, "lead", "Abandoned"));
    TaskView slow =
        board.claimed(patient, "ana", board.create(patient, "lead", "Default time-out"));

    clock.advance(Duration.ofSeconds(8));
    TaskView beat =
        board.done(board.transition(quick, "ana", kept.id(), "heartbeat", kept.revision()));
    clock.advance(Duration.ofSeconds(8));
    sweep();

    assertThat(board.read(quick, "ana", kept.id()).status()).isEqualTo("in_progress");
    assertThat(board.read(quick, "ana", dropped.id()).status()).isEqualTo("ready");
    assertThat(board.read(patient, "ana", slow.id()).status()).isEqualTo("in_progress");

    clock.advance(Duration.ofSeconds(3));
    sweep();
    assertThat(board.read(quick, "ana", kept.id()).status()).isEqualTo("ready");
    assertThat(board.read(patient, "ana", slow.id()).owner()).isEqualTo("ana");
    assertThat(beat.heartbeatCount()).isEqualTo(1);
  }

  @Test
  void sweepersOnSeveralReplicasRecoverEachExpiredClaimExactlyOnce() {
    List<Team> teams = new ArrayList<>();
    Map<Team, List<Long>> claimed = new HashMap<>();
    for (int t = 0; t < 3; t++) {
      Team team = teamWithClaimTimeout(10);
      teams.add(team);
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        TaskView task = board.create(team, "lead", "Job " + i);
        ids.add(board.claimed(team, i % 2 == 0 ? "ana" : "ben", task).id());
      }
      claimed.put(team, ids);
    }
    clock.advance(Duration.ofSeconds(11));

    // Four sweeps at once, as four replicas would run them; they share nothing but Postgres.
    List<Task> recovered =
        Flux.range(0, 4)
            .flatMap(
                i ->
                    sweeper
                        .sweepOnce()
                        .subscribeOn(Schedulers.parallel())
                        .flatMapMany(Flux::fromIterable))
            .collectList()
            .block(Duration.ofSeconds(60));
    sweep();

    for (Team team : teams) {
      List<TaskClaimExpired> events =
          board.events(team, TaskClaimExpired.TYPE, TaskClaimExpired.class);
      assertThat(events)
          .extracting(TaskClaimExpired::taskId)
          .containsExactlyInAnyOrderElementsOf(claimed.get(team));
      for (long id : claimed.get(team)) {
        TaskView task = board.read(team, "lead", id);
        assertThat(task.status()).isEqualTo("ready");
        assertThat(task.revision()).as("claimed at 2, recovered once").isEqualTo(3);
      }
    }
    assertThat(recovered.size()).isLessThanOrEqualTo(24);
  }

  @Test
  void onlyTheLeadOrTheOwnerChangesTheClaimTimeOutWithinItsBounds() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    String settings = BoardFixture.tasks(team) + "/settings";

    board
        .as(team, "ana")
        .get()
        .uri(settings)
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.effective_claim_timeout_seconds")
        .isEqualTo(300)
        .jsonPath("$.claim_timeout_seconds")
        .doesNotExist();
    board
        .as(team, "ana")
        .put()
        .uri(settings)
        .bodyValue(Map.of("expected_revision", 1, "claim_timeout_seconds", 60))
        .exchange()
        .expectStatus()
        .isForbidden();
    board
        .asOwner(team)
        .put()
        .uri(settings)
        .bodyValue(Map.of("expected_revision", 1, "claim_timeout_seconds", 1))
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("invalid-claim-timeout");
    board
        .asOwner(team)
        .put()
        .uri(settings)
        .bodyValue(Map.of("expected_revision", 1, "claim_timeout_seconds", 60))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.revision")
        .isEqualTo(2);
    board
        .as(team, "lead")
        .put()
        .uri(settings)
        .bodyValue(Map.of("expected_revision", 1, "claim_timeout_seconds", 90))
        .exchange()
        .expectStatus()
        .isEqualTo(409);
  }
}
