package io.agentteams.gateway.a2a;

import io.agentteams.gateway.identity.IssuedTokens;
import io.agentteams.gateway.identity.TeamDirectory;
import io.agentteams.gateway.identity.TokenResponse;
import io.agentteams.platform.identity.Caller;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code POST /api/v1/teams/{teamId}/a2a/tokens}: the owner mints a team-scoped A2A token for an
 * A2A client. It reads that team's agent card and calls its A2A endpoint, and nothing else: the
 * edge answers 404 to it everywhere else, and no service ever sees it. Like every token an owner
 * mints, it is recorded in the token registry, so the owner can list and revoke it.
 */
@RestController
public class TeamAgentTokenController {

  private final TeamDirectory directory;
  private final IssuedTokens tokens;
  private final TeamAgentProperties properties;

  public TeamAgentTokenController(
      TeamDirectory directory, IssuedTokens tokens, TeamAgentProperties properties) {
    this.directory = directory;
    this.tokens = tokens;
    this.properties = properties;
  }

  @PostMapping("/api/v1/teams/{teamId}/a2a/tokens")
  @ResponseStatus(HttpStatus.CREATED)
  public Mono<TokenResponse> mint(Caller.Owner owner, @PathVariable UUID teamId) {
    return directory
        .team(owner, teamId)
        .flatMap(
            team ->
                tokens.issue(
                    owner,
                    new Caller.TeamAgent(owner.ownerId(), teamId),
                    Map.of("kind", "team-a2a", "team_id", teamId.toString()),
                    properties.tokenTtl()));
  }
}
