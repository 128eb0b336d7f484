package io.agentteams.team.tokens.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.WebProblems;
import io.agentteams.team.tokens.application.TokenRegistry;
import io.agentteams.team.tokens.domain.IssuedToken;
import io.agentteams.team.tokens.domain.TokenProblems;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code /api/v1/tokens}: an owner lists the tokens handed to their agents and members and revokes
 * one, every one of an agent or every one of a member. {@code /api/internal/v1/tokens}: the gateway
 * records each token before it hands it out (the gateway does not route internal paths from
 * clients).
 */
@RestController
public class TokenRegistryController {

  private final TokenRegistry registry;

  public TokenRegistryController(TokenRegistry registry) {
    this.registry = registry;
  }

  @GetMapping("/api/v1/tokens")
  public Mono<TokenList> list(
      Caller.Owner owner,
      @RequestParam(name = "agent_id", required = false) @Nullable String agentId,
      @RequestParam(name = "team_id", required = false) @Nullable UUID teamId,
      @RequestParam(required = false) @Nullable String member) {
    return registry
        .list(owner.ownerId(), agentId, teamId, member)
        .map(tokens -> new TokenList(tokens.stream().map(TokenView::of).toList()));
  }

  @DeleteMapping("/api/v1/tokens/{tokenId}")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  public Mono<Void> revoke(Caller.Owner owner, @PathVariable String tokenId) {
    return registry.revoke(owner.ownerId(), tokenId).then();
  }

  /**
   * {@code DELETE /api/v1/tokens?agent_id=...} revokes every live token of an agent, {@code DELETE
   * /api/v1/tokens?team_id=...&member=...} every live token of a member; the subject is in the
   * query, so the caller is judged before anything else is read.
   */
  @DeleteMapping("/api/v1/tokens")
  public Mono<Revoked> revokeAll(
      Caller.Owner owner,
      @RequestParam(name = "agent_id", required = false) @Nullable String agentId,
      @RequestParam(name = "team_id", required = false) @Nullable UUID teamId,
      @RequestParam(required = false) @Nullable String member) {
    Mono<Integer> revoked;
    if (agentId != null && teamId == null && member == null) {
      revoked = registry.revokeAgent(owner.ownerId(), agentId);
    } else if (agentId == null && teamId != null && member != null) {
      revoked = registry.revokeMember(owner.ownerId(), teamId, member);
    } else {
      revoked = Mono.error(TokenProblems.invalidRevocation());
    }
    return revoked.map(Revoked::new);
  }

  /** The gateway records a token it is about to hand out, as the caller it acts for. */
  @PostMapping("/api/internal/v1/tokens")
  @ResponseStatus(HttpStatus.CREATED)
  public Mono<Void> record(Caller caller, @RequestBody Mono<Registration> body) {
    return body.flatMap(
        registration -> {
          String ownerId = null;
          if (caller instanceof Caller.Owner owner) {
            ownerId = owner.ownerId();
          } else if (caller instanceof Caller.Worker worker
              && IssuedToken.WORKER.equals(registration.kind())
              && worker.agentId().equals(registration.agentId())) {
            // A worker refreshes only its own agent's token.
            ownerId = worker.ownerId();
          }
          if (ownerId == null) {
            return Mono.error(WebProblems.notFound("agent", registration.agentId()));
          }
          return registry.record(
              new IssuedToken(
                  registration.id(),
                  ownerId,
                  registration.kind(),
                  registration.agentId(),
                  registration.teamId(),
                  registration.member(),
                  registration.issuedAt(),
                  registration.expiresAt(),
                  null));
        });
  }

  /** How many live tokens a revocation revoked. */
  public record Revoked(int revoked) {}

  /** A token the gateway is about to hand out. */
  public record Registration(
      UUID id,
      String kind,
      @Nullable String agentId,
      @Nullable UUID teamId,
      @Nullable String member,
      Instant issuedAt,
      Instant expiresAt) {}

  /** The owner's live tokens, newest first. */
  public record TokenList(List<TokenView> tokens) {}

  /** A token as its owner sees it: never the token itself, which nothing keeps. */
  public record TokenView(
      String id,
      String kind,
      @Nullable String agentId,
      @Nullable UUID teamId,
      @Nullable String member,
      Instant issuedAt,
      Instant expiresAt,
      @Nullable Instant revokedAt) {

    static TokenView of(IssuedToken token) {
      return new TokenView(
          token.id().toString(),
          token.kind(),
          token.agentId(),
          token.teamId(),
          token.member(),
          token.issuedAt(),
          token.expiresAt(),
          token.revokedAt());
    }
  }
}
