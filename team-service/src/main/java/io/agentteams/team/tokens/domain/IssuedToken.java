package io.agentteams.team.tokens.domain;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A token the gateway handed out for one of an owner's agents or team members.
 *
 * @param id the token's {@code jti}
 * @param ownerId the owner it acts for
 * @param kind what it acts as ({@code worker} or {@code member}; a new kind names its own)
 * @param agentId the agent a worker token takes jobs for
 * @param teamId the team a member token acts in
 * @param member the member a member token acts as
 * @param issuedAt when it was handed out
 * @param expiresAt when it expires
 * @param revokedAt when its owner revoked it, if they did
 */
public record IssuedToken(
    UUID id,
    String ownerId,
    String kind,
    @Nullable String agentId,
    @Nullable UUID teamId,
    @Nullable String member,
    Instant issuedAt,
    Instant expiresAt,
    @Nullable Instant revokedAt) {

  /** A worker token's kind. */
  public static final String WORKER = "worker";

  /** A member token's kind. */
  public static final String MEMBER = "member";

  /** A new worker token of an agent. */
  public static IssuedToken worker(
      UUID id, String ownerId, String agentId, Instant issuedAt, Instant expiresAt) {
    return new IssuedToken(id, ownerId, WORKER, agentId, null, null, issuedAt, expiresAt, null);
  }

  /** A new member token of a member of a team. */
  public static IssuedToken member(
      UUID id, String ownerId, UUID teamId, String member, Instant issuedAt, Instant expiresAt) {
    return new IssuedToken(id, ownerId, MEMBER, null, teamId, member, issuedAt, expiresAt, null);
  }
}
