package io.agentteams.gateway.presence;

import io.agentteams.gateway.identity.TeamDirectory;
import io.agentteams.gateway.routing.InternalCalls;
import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.platform.identity.Caller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/v1/agents/{agentId}/worker}: the scheduler knows which workers hold streams, not
 * whose agents exist, so the gateway first asks team-service whether the agent is in the caller's
 * catalog. Another owner's agent is not found, exactly as an agent that does not exist.
 */
@RestController
public class AgentWorkerController {

  private final TeamDirectory directory;
  private final InternalCalls calls;
  private final ServiceEndpoints services;

  public AgentWorkerController(
      TeamDirectory directory, InternalCalls calls, ServiceEndpoints services) {
    this.directory = directory;
    this.calls = calls;
    this.services = services;
  }

  @GetMapping("/api/v1/agents/{agentId}/worker")
  public Mono<JsonNode> worker(Caller.Owner owner, @PathVariable String agentId) {
    return directory
        .agent(owner, agentId)
        .then(
            calls.get(
                owner,
                services.scheduler(),
                "/api/v1/agents/{id}/worker",
                "agent",
                agentId,
                agentId));
  }
}
