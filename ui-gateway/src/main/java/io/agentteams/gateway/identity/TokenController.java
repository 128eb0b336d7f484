package io.agentteams.gateway.identity;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.WebProblems;
import java.time.Duration;
import java.util.Map;
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
  private final EdgeIdentityProperties properties;
  private final IssuedTokens issued;

  public TokenController(
      TeamDirectory directory, EdgeIdentityProperties properties, IssuedTokens issued) {
    this.issued = issued;
    this.directory = directory;
    this.properties = properties;
  }

  @PostMapping("/api/v1/agents/{agentId}/tokens")
  @ResponseStatus(HttpStatus.CREATED)
  public Mono<TokenResponse> workerToken(Caller.Owner owner, @PathVariable String agentId) {
    return directory
        .agent(owner, agentId)
        .flatMap(
            agent ->
                issue(
                    owner,
                    new Caller.Worker(owner.ownerId(), agentId),
                    Map.of("kind", "worker", "agent_id", agentId),
                    properties.workerTokenTtl()));
  }

  /**
   * A worker trades its token, while it is still valid, for a fresh one of the same agent: worker
   * tokens are short-lived, and a worker that runs for days refreshes before each expiry. An agent
   * that is no longer in its owner's catalog gets none.
   */
  @PostMapping("/api/v1/agents/{agentId}/tokens/refresh")
  @ResponseStatus(HttpStatus.CREATED)
  public Mono<TokenResponse> refreshWorkerToken(
      Caller.Worker worker, @PathVariable String agentId) {
    if (!worker.agentId().equals(agentId)) {
      return Mono.error(WebProblems.notFound("agent", agentId));
    }
    return directory
        .agent(new Caller.Owner(worker.ownerId()), agentId)
        .flatMap(
            agent ->
                issue(
                    worker,
                    new Caller.Worker(worker.ownerId(), agentId),
                    Map.of("kind", "worker", "agent_id", agentId),
                    properties.workerTokenTtl()));
  }

  @PostMapping("/api/v1/teams/{teamId}/members/{member}/tokens")
  @ResponseStatus(HttpStatus.CREATED)
  public Mono<TokenResponse> memberToken(
      Caller.Owner owner, @PathVariable UUID teamId, @PathVariable String member) {
    return directory
        .team(owner, teamId)
        .flatMap(
            team -> {
              boolean known =
                  StreamSupport.stream(team.path("members").spliterator(), false)
                      .anyMatch(m -> member.equals(m.path("name").asString()));
              if (!known) {
                throw WebProblems.notFound("member", member);
              }
              return issue(
                  owner,
                  new Caller.Member(owner.ownerId(), teamId, member, null),
                  Map.of("kind", "member", "team_id", teamId.toString(), "member", member),
                  properties.memberTokenTtl());
            });
  }

  private Mono<TokenResponse> issue(
      Caller requester, Caller subject, Map<String, String> what, Duration ttl) {
    return issued.issue(requester, subject, what, ttl);
  }
}
