package io.agentteams.gateway.identity;

import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.IdentityProperties;
import io.agentteams.platform.problem.ProblemException;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/** Asks team-service whether a caller may see a team (team-service owns that answer). */
@Component
public class TeamDirectory {

  private final WebClient teamService;
  private final CallerTokens internalTokens;
  private final IdentityProperties identity;

  public TeamDirectory(
      WebClient.Builder web,
      ServiceEndpoints services,
      CallerTokens internalTokens,
      IdentityProperties identity) {
    this.teamService = web.baseUrl(services.team().toString()).build();
    this.internalTokens = internalTokens;
    this.identity = identity;
  }

  /** Completes when the caller may see the team; fails with not-found otherwise. */
  public Mono<Void> requireVisible(Caller caller, UUID teamId) {
    return team(caller, teamId).then();
  }

  /** The team as team-service shows it to the caller; not-found when the caller may not see it. */
  public Mono<JsonNode> team(Caller caller, UUID teamId) {
    return get(caller, "/api/v1/teams/{id}", "team", teamId);
  }

  /** The agent as team-service shows it to the caller; not-found when it is not the caller's. */
  public Mono<JsonNode> agent(Caller caller, String agentId) {
    return get(caller, "/api/v1/agents/{id}", "agent", agentId);
  }

  private Mono<JsonNode> get(Caller caller, String path, String what, Object id) {
    return teamService
        .get()
        .uri(path, id)
        .header(
            "Authorization", "Bearer " + internalTokens.issue(caller, identity.internalTokenTtl()))
        .exchangeToMono(
            response -> {
              if (response.statusCode().is2xxSuccessful()) {
                return response.bodyToMono(JsonNode.class);
              }
              if (response.statusCode().value() == HttpStatus.NOT_FOUND.value()) {
                return response.releaseBody().then(Mono.error(ProblemException.notFound(what, id)));
              }
              return response
                  .releaseBody()
                  .then(
                      Mono.error(
                          new ProblemException(
                              ProblemException.Kind.UNAVAILABLE,
                              "team-service-unavailable",
                              "team-service answered " + response.statusCode().value())));
            });
  }
}
