package io.agentteams.devstack.console;

import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** Owners, agents and teams made through the public API, for the console's browser tests. */
final class ConsoleFixture {

  static final Duration PATIENCE = Duration.ofSeconds(60);

  final String gateway;
  final Api api;

  ConsoleFixture() {
    this.gateway = SharedStack.get().url(Service.GATEWAY);
    this.api = new Api(gateway);
  }

  String ownerToken(String owner) {
    return api.ownerToken(owner);
  }

  /** Registers a pull agent (if the owner has none of that id yet). */
  void agent(String ownerToken, String id, String name, String description) {
    int status =
        api.post(
                "/api/v1/agents",
                ownerToken,
                Map.of(
                    "id",
                    id,
                    "name",
                    name,
                    "description",
                    description,
                    "runtime",
                    Map.of("kind", "pull")))
            .status();
    if (status != 201 && status != 409) {
      throw new IllegalStateException("agent " + id + " not registered: " + status);
    }
  }

  /**
   * A ready team whose members are named as their agents; the first member leads.
   *
   * @return the team id
   */
  String team(String ownerToken, String name, String goal, String... agents) {
    List<Map<String, Object>> members = new ArrayList<>();
    for (int i = 0; i < agents.length; i++) {
      members.add(Map.of("name", agents[i], "agent_id", agents[i], "lead", i == 0));
    }
    JsonNode team =
        api.post(
                "/api/v1/teams", ownerToken, Map.of("name", name, "goal", goal, "members", members))
            .ok();
    String id = team.get("id").asString();
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                "ready"
                    .equals(
                        api.get("/api/v1/teams/" + id, ownerToken).ok().path("status").asString()));
    return id;
  }

  String memberToken(String ownerToken, String teamId, String member) {
    return api.memberToken(ownerToken, teamId, member);
  }

  /** Asks members of the team through the API; the jobs it created. */
  List<JsonNode> request(String ownerToken, String teamId, String text, String... recipients) {
    JsonNode created =
        api.post(
                "/api/v1/teams/" + teamId + "/requests",
                ownerToken,
                Map.of("recipients", List.of(recipients), "text", text))
            .ok();
    List<JsonNode> jobs = new ArrayList<>();
    created.path("jobs").forEach(jobs::add);
    return jobs;
  }

  JsonNode job(String ownerToken, String jobId) {
    return api.get("/api/v1/jobs/" + jobId, ownerToken).ok();
  }

  /** Creates a task as a member; the task. */
  JsonNode task(String memberToken, String teamId, Map<String, Object> task) {
    return api.post("/api/v1/teams/" + teamId + "/tasks", memberToken, task).ok().path("task");
  }

  /** The team's jobs as the activity API lists them (requests and hand-offs). */
  JsonNode activity(String ownerToken, String teamId) {
    return api.get("/api/v1/teams/" + teamId + "/activity?limit=200", ownerToken)
        .ok()
        .path("items");
  }
}
