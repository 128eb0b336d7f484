package io.agentteams.taskboard.task.web;

import static io.agentteams.taskboard.BoardFixture.tasks;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.Caller;
import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import io.agentteams.taskboard.task.TaskBoardProperties;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A board is listed a page at a time: by cursor in id order, within a page size and a byte budget,
 * and a cursor or size the service cannot honour is a 400 only to a caller admitted to the team.
 */
@TaskBoardServiceTest
class TaskPagingIntegrationTest {

  @Autowired BoardFixture board;
  @Autowired TaskBoardProperties properties;

  @Test
  void pagesCoverEveryTaskOnceInIdOrderWhileTasksAreCreated() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    List<Long> before = new ArrayList<>();
    for (int i = 0; i < 23; i++) {
      before.add(board.create(team, "lead", "Before " + i).id());
    }
    AtomicBoolean paging = new AtomicBoolean(true);
    // Another member keeps creating tasks for as long as the lead pages.
    CompletableFuture<Integer> writer =
        CompletableFuture.supplyAsync(
            () -> {
              int created = 0;
              while (paging.get() && created < 200) {
                board.create(team, "ana", "During " + created++);
              }
              return created;
            });

    List<Long> listed = new ArrayList<>();
    int pages = 0;
    String cursor = null;
    do {
      TaskPageView page = board.page(team, "lead", "limit=4" + cursorParameter(cursor));
      assertThat(page.items()).hasSizeBetween(1, 4);
      page.items().forEach(task -> listed.add(task.id()));
      cursor = page.nextCursor();
      pages++;
    } while (cursor != null);
    paging.set(false);
    int during = writer.join();

    assertThat(pages).isGreaterThan(5);
    assertThat(listed).as("id order, no task twice").isSorted().doesNotHaveDuplicates();
    assertThat(listed).as("every task that existed first").containsAll(before);
    List<Long> all = board.list(team, "lead", "").stream().map(TaskView::id).toList();
    assertThat(all).hasSize(23 + during).isSorted();
    // What the pages listed is a prefix of the board: nothing was skipped behind a cursor.
    assertThat(all.subList(0, listed.size())).isEqualTo(listed);
  }

  @Test
  void filtersAndTombstonesPageAndACursorServesOnlyItsOwnFilterAndTeam() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    Team other = board.teamWithLeadAndMembers("alice", "boss", "zoe");
    for (int i = 0; i < 5; i++) {
      board.create(team, "lead", "Task " + i);
    }
    board.done(
        board.as(team, "lead").delete().uri(tasks(team) + "/2?expected_revision=1").exchange());

    assertThat(ids(board.list(team, "ana", "limit=2"))).containsExactly(1L, 3L, 4L, 5L);
    assertThat(ids(board.list(team, "ana", "limit=2&include_deleted=true")))
        .containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(ids(board.list(team, "ana", "limit=1&status=deleted&include_deleted=true")))
        .containsExactly(2L);
    assertThat(board.page(team, "ana", "limit=5").nextCursor())
        .as("the last page says so")
        .isNull();

    String cursor = board.page(team, "ana", "limit=2").nextCursor();
    assertThat(cursor).isNotNull();
    refused(board.as(team, "ana"), team, "limit=2&status=ready" + cursorParameter(cursor))
        .isEqualTo("cursor-filter-mismatch");
    board.create(other, "boss", "Elsewhere");
    refused(board.as(other, "boss"), other, "limit=2" + cursorParameter(cursor))
        .isEqualTo("cursor-filter-mismatch");
    refused(board.as(team, "ana"), team, "cursor=not-a-cursor").isEqualTo("invalid-cursor");
    refused(board.as(team, "ana"), team, "limit=0").isEqualTo("invalid-limit");
    refused(board.as(team, "ana"), team, "limit=" + (properties.listMaxPageSize() + 1))
        .isEqualTo("invalid-limit");
    refused(board.as(team, "ana"), team, "limit=many").isEqualTo("invalid-limit");
    refused(board.as(team, "ana"), team, "status=sleeping").isEqualTo("unknown-status");
    refused(board.as(team, "ana"), team, "include_deleted=perhaps").isEqualTo("invalid-parameter");
  }

  @Test
  void anOutsiderGetsNotFoundWhateverItAsksAndNothingIsValidatedFirst() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    board.create(team, "lead", "Secret");
    String cursor = board.page(team, "ana", "limit=1").nextCursor();
    List<WebTestClient> outsiders =
        List.of(
            board.client(new Caller.Owner("mallory")),
            board.client(new Caller.Member("mallory", team.id(), "ana", null)));
    for (WebTestClient outsider : outsiders) {
      for (String query :
          List.of(
              "",
              "limit=0",
              "limit=many",
              "cursor=not-a-cursor",
              "status=sleeping",
              "include_deleted=perhaps",
              "limit=1" + cursorParameter(cursor))) {
        outsider
            .get()
            .uri(tasks(team) + "?" + query)
            .exchange()
            .expectStatus()
            .isNotFound()
            .expectBody()
            .jsonPath("$.code")
            .isEqualTo("team-not-found");
      }
    }
  }

  @Test
  void aPageEndsEarlyRatherThanExceedItsByteBudgetAndTheNextPageGoesOn() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    // Each description is written twice its length (every quote is escaped): about 8 KB per task,
    // so 150 tasks (in plans of 25, each request within the service's 256 KB body limit) are well
    // over the 256 KB a page may hold.
    String quotes = "\"".repeat(properties.descriptionMaxChars());
    for (int plan = 0; plan < 6; plan++) {
      List<Map<String, Object>> planned = new ArrayList<>();
      for (int i = 0; i < 25; i++) {
        Map<String, Object> task = new HashMap<>();
        task.put("title", "Plan " + plan + " task " + i);
        task.put("description", quotes);
        task.put("dependencies", List.of());
        planned.add(task);
      }
      board
          .as(team, "lead")
          .post()
          .uri("/api/v1/teams/" + team.id() + "/plans")
          .bodyValue(Map.of("tasks", planned, "require_approval", false))
          .exchange()
          .expectStatus()
          .isCreated();
    }

    byte[] first =
        board
            .as(team, "ana")
            .get()
            .uri(tasks(team) + "?limit=" + properties.listMaxPageSize())
            .accept(MediaType.APPLICATION_JSON)
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody()
            .returnResult()
            .getResponseBody();
    assertThat((long) first.length).isLessThanOrEqualTo(properties.listMaxBytes().toBytes());
    TaskPageView page = board.page(team, "ana", "limit=" + properties.listMaxPageSize());
    assertThat(page.items()).hasSizeBetween(10, 149);
    assertThat(page.nextCursor()).isNotNull();
    assertThat(ids(board.list(team, "ana", "limit=" + properties.listMaxPageSize())))
        .hasSize(150)
        .isSorted()
        .doesNotHaveDuplicates();
  }

  private org.assertj.core.api.AbstractStringAssert<?> refused(
      WebTestClient client, Team team, String query) {
    String code =
        client
            .get()
            .uri(tasks(team) + "?" + query)
            .exchange()
            .expectStatus()
            .isBadRequest()
            .expectHeader()
            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody()
            .get("code")
            .toString();
    return assertThat(code).as(query);
  }

  private static String cursorParameter(String cursor) {
    return cursor == null ? "" : "&cursor=" + cursor;
  }

  private static List<Long> ids(List<TaskView> tasks) {
    return tasks.stream().map(TaskView::id).toList();
  }
}
