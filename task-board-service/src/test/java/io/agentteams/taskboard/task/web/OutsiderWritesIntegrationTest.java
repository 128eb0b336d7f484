package io.agentteams.taskboard.task.web;

import static io.agentteams.taskboard.BoardFixture.task;
import static io.agentteams.taskboard.BoardFixture.tasks;

import io.agentteams.platform.identity.Caller;
import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Every write of the board and the plans admits its caller before it reads the body: an outsider
 * (another owner, a member token of another team) gets the same 404 for a team whatever it sends, a
 * malformed or invalid body included, so nothing it learns depends on the team.
 */
@TaskBoardServiceTest
class OutsiderWritesIntegrationTest {

  @Autowired BoardFixture board;

  @Test
  void outsidersGetNotFoundBeforeAnyBodyIsReadOrChecked() {
    Team team = board.teamWithLeadAndMembers("alice", "lead", "ana");
    TaskView created = board.create(team, "lead", "Inside job");
    Team sibling = board.teamWithLeadAndMembers("alice", "boss");
    String plans = "/api/v1/teams/" + team.id() + "/plans";
    List<Write> writes =
        List.of(
            new Write(HttpMethod.POST, tasks(team)),
            new Write(HttpMethod.PUT, tasks(team) + "/settings"),
            new Write(HttpMethod.PATCH, task(team, created.id())),
            new Write(HttpMethod.POST, task(team, created.id()) + "/claim"),
            new Write(HttpMethod.POST, task(team, created.id()) + "/release"),
            new Write(HttpMethod.POST, task(team, created.id()) + "/reassign"),
            new Write(HttpMethod.POST, task(team, created.id()) + "/heartbeat"),
            new Write(HttpMethod.POST, task(team, created.id()) + "/complete"),
            new Write(HttpMethod.POST, task(team, created.id()) + "/fail"),
            new Write(HttpMethod.POST, plans),
            new Write(HttpMethod.POST, plans + "/" + UUID.randomUUID() + "/approve"));
    List<Caller> outsiders =
        List.of(
            new Caller.Owner("mallory"),
            new Caller.Member("mallory", team.id(), "lead", null),
            new Caller.Member("alice", sibling.id(), "boss", null));
    for (Caller outsider : outsiders) {
      WebTestClient client = board.client(outsider);
      for (Write write : writes) {
        for (String body : List.of("{", "{}", "{\"title\": 7, \"expected_revision\": \"x\"}")) {
          client
              .method(write.method())
              .uri(write.path())
              .contentType(MediaType.APPLICATION_JSON)
              .bodyValue(body)
              .exchange()
              .expectStatus()
              .isNotFound()
              .expectBody()
              .jsonPath("$.code")
              .isEqualTo("team-not-found");
        }
      }
    }
  }

  private record Write(HttpMethod method, String path) {}
}
