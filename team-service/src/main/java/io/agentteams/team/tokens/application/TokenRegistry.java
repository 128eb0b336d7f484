package io.agentteams.team.tokens.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.token.TokensRevoked;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.team.agents.application.AgentTokens;
import io.agentteams.team.agents.domain.AgentId;
import io.agentteams.team.agents.domain.AgentProblems;
import io.agentteams.team.agents.persistence.AgentStore;
import io.agentteams.team.teams.domain.TeamProblems;
import io.agentteams.team.teams.persistence.TeamStore;
import io.agentteams.team.tokens.domain.IssuedToken;
import io.agentteams.team.tokens.domain.TokenProblems;
import io.agentteams.team.tokens.persistence.TokenStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The registry of tokens the gateway hands to owners' agents and members. The gateway records each
 * one here before handing it out; an owner lists them and revokes one, an agent's or a member's,
 * and deleting an agent revokes its tokens. Every revocation is published as {@link TokensRevoked}
 * through the outbox in the same transaction, for every gateway replica to refuse those tokens.
 */
@Service
public class TokenRegistry implements AgentTokens {

  /** How long a row outlives its token: long enough to answer "expired", not "unknown". */
  private static final Duration KEPT_AFTER_EXPIRY = Duration.ofDays(1);

  /** The most tokens one listing returns (newest first). */
  public static final int MAX_LISTED = 500;

  private final TokenStore tokens;
  private final TeamStore teams;
  private final AgentStore agents;
  private final Outbox outbox;
  private final TransactionalOperator transactions;
  private final Clock clock;

  public TokenRegistry(
      TokenStore tokens,
      TeamStore teams,
      AgentStore agents,
      Outbox outbox,
      TransactionalOperator transactions,
      Clock clock) {
    this.tokens = tokens;
    this.teams = teams;
    this.agents = agents;
    this.outbox = outbox;
    this.transactions = transactions;
    this.clock = clock;
  }

  /** Records a token about to be handed out, forgetting the owner's long-expired ones. */
  public Mono<Void> record(IssuedToken token) {
    if (IssuedToken.WORKER.equals(token.kind()) && token.agentId() == null) {
      return Mono.error(TokenProblems.invalidRegistration("a worker token names its agent"));
    }
    if (IssuedToken.MEMBER.equals(token.kind())
        && (token.teamId() == null || token.member() == null)) {
      return Mono.error(
          TokenProblems.invalidRegistration("a member token names its team and member"));
    }
    return tokens
        .forgetExpired(token.ownerId(), clock.instant().minus(KEPT_AFTER_EXPIRY))
        .then(tokens.insert(token));
  }

  /** The owner's live tokens (revoked ones included, marked), optionally an agent's or member's. */
  public Mono<List<IssuedToken>> list(
      String ownerId, @Nullable String agentId, @Nullable UUID teamId, @Nullable String member) {
    return subjectVisible(ownerId, agentId, teamId, member)
        .thenMany(
            Flux.defer(
                () -> tokens.live(ownerId, agentId, teamId, member, clock.instant(), MAX_LISTED)))
        .collectList();
  }

  /** Revokes one of the owner's tokens; another owner's or an unknown one is not found. */
  public Mono<Integer> revoke(String ownerId, String id) {
    UUID tokenId;
    try {
      tokenId = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      return Mono.error(TokenProblems.tokenNotFound(id));
    }
    return tokens
        .exists(ownerId, tokenId)
        .flatMap(
            known ->
                known
                    ? transactions.transactional(
                        published(ownerId, tokens.revokeOne(ownerId, tokenId, clock.instant())))
                    : Mono.error(TokenProblems.tokenNotFound(id)));
  }

  /** Revokes every live token of one of the owner's agents. */
  public Mono<Integer> revokeAgent(String ownerId, String agentId) {
    return agentVisible(ownerId, agentId)
        .then(transactions.transactional(revokeAgentWithin(ownerId, agentId)));
  }

  /**
   * Revokes every live token of the agent within the caller's transaction (the agent's deletion).
   */
  @Override
  public Mono<Integer> revokeAgentWithin(String ownerId, String agentId) {
    return published(ownerId, tokens.revokeAgent(ownerId, agentId, clock.instant()));
  }

  /** Revokes every live token of a member of one of the owner's teams. */
  public Mono<Integer> revokeMember(String ownerId, UUID teamId, String member) {
    return subjectVisible(ownerId, null, teamId, member)
        .then(
            transactions.transactional(
                published(ownerId, tokens.revokeMember(ownerId, teamId, member, clock.instant()))));
  }

  /** Another owner's agent or team is not found, as everywhere else. */
  private Mono<Void> subjectVisible(
      String ownerId, @Nullable String agentId, @Nullable UUID teamId, @Nullable String member) {
    Mono<Void> agent = agentId == null ? Mono.empty() : agentVisible(ownerId, agentId);
    Mono<Void> team =
        teamId == null
            ? Mono.empty()
            : teams
                .find(teamId)
                .filter(found -> found.ownerId().equals(ownerId))
                .switchIfEmpty(Mono.error(TeamProblems.teamNotFound(teamId)))
                .then();
    return agent.then(team);
  }

  private Mono<Void> agentVisible(String ownerId, String agentId) {
    if (!AgentId.isValid(agentId)) {
      return Mono.error(AgentProblems.agentNotFound(agentId));
    }
    return agents
        .find(ownerId, new AgentId(agentId))
        .switchIfEmpty(Mono.error(AgentProblems.agentNotFound(agentId)))
        .then();
  }

  private Mono<Integer> published(String ownerId, Flux<IssuedToken> revoked) {
    return revoked
        .collectList()
        .flatMap(
            list -> {
              if (list.isEmpty()) {
                return Mono.just(0);
              }
              Instant now = clock.instant();
              TokensRevoked event =
                  new TokensRevoked(
                      ownerId,
                      list.stream()
                          .map(
                              t ->
                                  new TokensRevoked.Token(
                                      t.id().toString(), t.expiresAt().toString()))
                          .toList());
              return outbox
                  .append(
                      Topics.TOKEN_REVOCATIONS,
                      TokensRevoked.key(ownerId),
                      ownerId,
                      now.toEpochMilli(),
                      event)
                  .thenReturn(list.size());
            });
  }
}
