package io.agentteams.team.support;

import static org.awaitility.Awaitility.await;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The service's API as tests use it: tokens, agents, teams, waiting for a status. */
public final class TeamApi {

  private final WebTestClient web;
  private final CallerTokens tokens;

  public TeamApi(WebTestClient web, CallerTokens tokens) {
    this.web = web;
    this.tokens = tokens;
  }

  /** A fresh owner id, so tests never see each other's teams or agents. */
  public static String newOwner(String name) {
    return name + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** A fresh agent id. */
  public static String newAgentId(String name) {
    return name + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  public String owner(String ownerId) {
    return "Bearer " + tokens.issue(new Caller.Owner(ownerId), Duration.ofMinutes(5));
  }

  public String member(String ownerId, UUID teamId, String member) {
    return member(ownerId, teamId, member, null);
  }

  public String member(String ownerId, UUID teamId, String member, @Nullable UUID jobId) {
    return "Bearer "
        + tokens.issue(new Caller.Member(ownerId, teamId, member, jobId), Duration.ofMinutes(5));
  }

  public String service(String name) {
    return "Bearer " + tokens.issue(new Caller.Service(name), Duration.ofMinutes(5));
  }

  public WebTestClient web() {
    return web;
  }

  /** Registers a pull agent under the id. */
  public void registerAgent(String ownerId, String agentId) {
    registerAgent(ownerId, agentId, "pull", null);
  }

  /** Registers an agent of the runtime kind under the id. */
  public void registerAgent(
      String ownerId, String agentId, String runtimeKind, @Nullable String endpoint) {
    Map<String, Object> runtime = new HashMap<>();
    runtime.put("kind", runtimeKind);
    runtime.put("endpoint", endpoint);
    web.post()
        .uri("/api/v1/agents")
        .header("Authorization", owner(ownerId))
        .bodyValue(
            Map.of(
                "id",
                agentId,
                "name",
                "Agent " + agentId,
                "description",
                "does " + agentId + " work",
                "runtime",
                runtime,
                "tool_groups",
                List.of("board", "mailbox")))
        .exchange()
        .expectStatus()
        .isCreated();
  }

  /** A create-team body with members {@code name=agentId}, the first one the lead. */
  public static Map<String, Object> teamBody(String name, Map<String, String> members) {
    List<Map<String, Object>> roster = new ArrayList<>();
    boolean first = true;
    for (var member : members.entrySet()) {
      roster.add(Map.of("name", member.getKey(), "agent_id", member.getValue(), "lead", first));
      first = false;
    }
    return Map.of("name", name, "goal", "Write the report", "members", roster);
  }

  /** Creates the team and returns its id. */
  public UUID createTeam(String ownerId, Map<String, String> members) {
    Map<?, ?> created =
        web.post()
            .uri("/api/v1/teams")
            .header("Authorization", owner(ownerId))
            .bodyValue(teamBody("Team of " + ownerId, members))
            .exchange()
            .expectStatus()
            .isCreated()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    return UUID.fromString((String) created.get("id"));
  }

  /** Registers one pull agent per member and creates the team. */
  public UUID createTeamWithPullAgents(String ownerId, String... members) {
    Map<String, String> roster = new java.util.LinkedHashMap<>();
    for (String member : members) {
      String agentId = newAgentId(member);
      registerAgent(ownerId, agentId);
      roster.put(member, agentId);
    }
    return createTeam(ownerId, roster);
  }

  /** The team as its owner reads it. */
  public Map<String, Object> team(String ownerId, UUID teamId) {
    @SuppressWarnings("unchecked")
    Map<String, Object> team =
        web.get()
            .uri("/api/v1/teams/{id}", teamId)
            .header("Authorization", owner(ownerId))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    return team;
  }

  /** Waits until the team has left provisioning and returns it. */
  public Map<String, Object> awaitSettled(String ownerId, UUID teamId) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> team(ownerId, teamId), t -> !"provisioning".equals(t.get("status")));
  }

  /** Waits until the team has the status and returns it. */
  public Map<String, Object> awaitStatus(String ownerId, UUID teamId, String status) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> team(ownerId, teamId), t -> status.equals(t.get("status")));
  }

  /** The members of a team as the API shows them. */
  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> members(Map<String, Object> team) {
    return (List<Map<String, Object>>) team.get("members");
  }
}
