package io.agentteams.contracts.token;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/**
 * Tokens an owner revoked (one by id, every token of an agent or of a member, or an agent's tokens
 * as the agent was deleted). Published by team-service on {@code Topics.TOKEN_REVOCATIONS} only,
 * for every gateway replica, which refuses these tokens from then on and closes their open streams.
 *
 * @param ownerId the owner whose tokens they were
 * @param tokens the revoked tokens, each with the instant it would have expired, after which a
 *     gateway may forget it
 */
public record TokensRevoked(String ownerId, List<Token> tokens) implements EventPayload {

  public static final String TYPE = "TokensRevoked";

  /**
   * One revoked token.
   *
   * @param id the token's {@code jti}
   * @param expiresAt when it would have expired (ISO-8601)
   */
  public record Token(String id, String expiresAt) {}

  /** The Kafka key of an owner's revocations. */
  public static String key(String ownerId) {
    return "tokens:" + ownerId;
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
