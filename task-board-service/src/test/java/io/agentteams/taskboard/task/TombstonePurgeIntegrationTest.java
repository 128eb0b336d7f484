package io.agentteams.taskboard.task;

import static io.agentteams.taskboard.BoardFixture.task;
import static io.agentteams.taskboard.BoardFixture.tasks;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import io.agentteams.taskboard.task.application.TombstonePurge;
import io.agentteams.taskboard.task.web.TaskView;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

/** Tombstones are purged after their retention; the ids they held are never given out again. */
@TaskBoardServiceTest
class TombstonePurgeIntegrationTest {

  @Autowired BoardFixture board;
  @Autowired TombstonePurge purge;
  @Autowired TaskBoardProperties properties;
  @Autowired DatabaseClient db;
  @Autowired MeterRegistry meters;

  @Test
  void aTombstoneOlderThanTheRetentionIsPurgedANewerOneKeptAndNoIdIsReused() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView old = board.create(team, "lead", "Deleted long ago");
    TaskView recent = board.create(team, "lead", "Deleted just now");
    TaskView live = board.create(team, "lead", "Still on the board");
    TaskView last = board.create(team, "lead", "The highest id so far");
    for (TaskView deleted : List.of(old, recent, last)) {
      board.done(
          board
              .as(team, "lead")
              .delete()
              .uri(task(team, deleted.id()) + "?expected_revision=1")
              .exchange());
    }
    // The first deletion happened longer ago than the retention (and the last one's too, so the
    // counter would go back if it were derived from the ids left).
    for (TaskView aged : List.of(old, last)) {
      db.sql(
              "UPDATE task SET deleted_at = deleted_at - make_interval(secs => :age)"
                  + " WHERE team_id = :team AND id = :id")
          .bind("age", (double) properties.tombstoneRetention().plusHours(1).toSeconds())
          .bind("team", team.id())
          .bind("id", aged.id())
          .fetch()
          .rowsUpdated()
          .block();
    }
    double purgedBefore = purgedCount();

    assertThat(purge.purgeOnce().block()).isGreaterThanOrEqualTo(2);

    assertThat(board.list(team, "ana", "include_deleted=true"))
        .extracting(TaskView::id)
        .containsExactly(recent.id(), live.id());
    board.as(team, "ana").get().uri(task(team, old.id())).exchange().expectStatus().isNotFound();
    assertThat(purgedCount()).isGreaterThanOrEqualTo(purgedBefore + 2);
    // Ids stay monotonic: the next task follows the highest id ever given, purged or not.
    TaskView next = board.create(team, "lead", "After the purge");
    assertThat(next.id()).isEqualTo(last.id() + 1);
    // A dependency on a purged task is still refused as one on a deleted task.
    board
        .as(team, "lead")
        .post()
        .uri(tasks(team))
        .bodyValue(Map.of("title", "Depends on the past", "dependencies", List.of(old.id())))
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.detail")
        .isEqualTo("dependency " + old.id() + " was deleted");
    assertThat(purge.purgeOnce().block()).as("nothing left to purge of this team").isNotNull();
    assertThat(board.list(team, "ana", "include_deleted=true"))
        .extracting(TaskView::id)
        .containsExactly(recent.id(), live.id(), next.id());
  }

  private double purgedCount() {
    return meters.counter("agentteams.taskboard.tombstones.purged").count();
  }
}
