package io.agentteams.gateway.stream;

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
    return teamService
        .get()
        .uri("/api/v1/teams/{teamId}", teamId)
        .header(
            "Authorization", "Bearer " + internalTokens.issue(caller, identity.internalTokenTtl()))
        .exchangeToMono(
            response -> {
              if (response.statusCode().is2xxSuccessful()) {
                return response.releaseBody();
              }
              if (response.statusCode().value() == HttpStatus.NOT_FOUND.value()) {
                return response
                    .releaseBody()
                    .then(Mono.error(ProblemException.notFound("team", teamId)));
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
