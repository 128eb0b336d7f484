package io.agentteams.gateway.identity;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.PublicTokens;
import io.agentteams.platform.web.WebProblems;
import java.time.Duration;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Owners mint tokens for their agents: a worker token lets an agent worker take the jobs of one
 * registered agent; a member token lets an agent act as exactly one member of one team.
 */
@RestController
public class TokenController {

  private final TeamDirectory directory;
  private final PublicTokens tokens;
  private final EdgeIdentityProperties properties;

  public TokenController(
      TeamDirectory directory, PublicTokens tokens, EdgeIdentityProperties properties) {
    this.directory = directory;
    this.tokens = tokens;
    this.properties = properties;
  }

  @PostMapping("/api/v1/agents/{agentId}/tokens")
  @ResponseStatus(HttpStatus.CREATED)
  public Mono<TokenResponse> workerToken(Caller.Owner owner, @PathVariable String agentId) {
    return directory
        .agent(owner, agentId)
        .map(
            agent ->
                issue(new Caller.Worker(owner.ownerId(), agentId), properties.workerTokenTtl()));
  }

  @PostMapping("/api/v1/teams/{teamId}/members/{member}/tokens")
  @ResponseStatus(HttpStatus.CREATED)
  public Mono<TokenResponse> memberToken(
      Caller.Owner owner, @PathVariable UUID teamId, @PathVariable String member) {
    return directory
        .team(owner, teamId)
        .map(
            team -> {
              boolean known =
                  StreamSupport.stream(team.path("members").spliterator(), false)
                      .anyMatch(m -> member.equals(m.path("name").asString()));
              if (!known) {
                throw WebProblems.notFound("member", member);
              }
              return issue(
                  new Caller.Member(owner.ownerId(), teamId, member, null),
                  properties.memberTokenTtl());
            });
  }

  private TokenResponse issue(Caller caller, Duration ttl) {
    return new TokenResponse(tokens.issue(caller, ttl), "Bearer", ttl.toSeconds());
  }
}
