package io.agentteams.devstack.fault;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A team made through the public API for a workload: its owner's token, its members' tokens and the
 * agents they are bound to (one agent per member, on the pull runtime).
 *
 * @param id the team's id
 * @param owner the owner's token
 * @param members member name to member token, in roster order
 * @param agents member name to agent id
 */
public record Team(
    String id, String owner, Map<String, String> members, Map<String, String> agents) {

  /** The members' names in roster order. */
  public List<String> names() {
    return new ArrayList<>(members.keySet());
  }

  /**
   * Creates a team of {@code size} members (the first is the lead) and waits until it is ready.
   *
   * @param tag makes agent ids and names unique
   */
  public static Team create(Client client, String ownerToken, String tag, int size) {
    Map<String, String> agents = new LinkedHashMap<>();
    List<Map<String, Object>> roster = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      String member = "m" + i;
      String agent = tag + "-" + member;
      Client.must(
          client.post(
              "/api/v1/agents",
              ownerToken,
              Map.of("id", agent, "name", agent, "runtime", Map.of("kind", "pull"))));
      agents.put(member, agent);
      roster.add(Map.of("name", member, "agent_id", agent, "lead", i == 0));
    }
    String id =
        Client.must(
                client.post(
                    "/api/v1/teams",
                    ownerToken,
                    Map.of("name", "Team " + tag, "goal", "Survive faults", "members", roster)))
            .get("id")
            .asString();
    await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> "ready".equals(status(client, ownerToken, id)));
    Map<String, String> members = new LinkedHashMap<>();
    for (String member : agents.keySet()) {
      members.put(
          member,
          Client.must(
                  client.post(
                      "/api/v1/teams/" + id + "/members/" + member + "/tokens",
                      ownerToken,
                      Map.of()))
              .get("access_token")
              .asString());
    }
    return new Team(id, ownerToken, members, agents);
  }

  private static String status(Client client, String owner, String id) {
    Client.Reply reply = client.get("/api/v1/teams/" + id, owner);
    return reply.ok() ? reply.json().get("status").asString() : "unknown";
  }
}
