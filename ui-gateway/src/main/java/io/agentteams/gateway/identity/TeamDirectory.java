package io.agentteams.gateway.identity;

import io.agentteams.gateway.routing.InternalCalls;
import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.platform.identity.Caller;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/** Asks team-service whether a caller may see a team (team-service owns that answer). */
@Component
public class TeamDirectory {

  private final InternalCalls calls;
  private final ServiceEndpoints services;

  public TeamDirectory(InternalCalls calls, ServiceEndpoints services) {
    this.calls = calls;
    this.services = services;
  }

  /** Completes when the caller may see the team; fails with not-found otherwise. */
  public Mono<Void> requireVisible(Caller caller, UUID teamId) {
    return team(caller, teamId).then();
  }

  /** The team as team-service shows it to the caller; not-found when the caller may not see it. */
  public Mono<JsonNode> team(Caller caller, UUID teamId) {
    return calls.get(caller, services.team(), "/api/v1/teams/{id}", "team", teamId, teamId);
  }

  /** The team's active public state as team-service shows it to the caller. */
  public Mono<JsonNode> state(Caller caller, UUID teamId) {
    return calls.get(caller, services.team(), "/api/v1/teams/{id}/state", "team", teamId, teamId);
  }

  /** The agent as team-service shows it to the caller; not-found when it is not the caller's. */
  public Mono<JsonNode> agent(Caller caller, String agentId) {
    return calls.get(caller, services.team(), "/api/v1/agents/{id}", "agent", agentId, agentId);
  }
}
