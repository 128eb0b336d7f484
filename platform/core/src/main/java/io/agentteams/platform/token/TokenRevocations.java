package io.agentteams.platform.token;

/** The ids ({@code jti}) of tokens their owners revoked, asked about every token verified. */
@FunctionalInterface
public interface TokenRevocations {

  /** No token is ever revoked (tokens that live for one call, or that only this process reads). */
  TokenRevocations NONE = tokenId -> false;

  /** Whether the token with this id was revoked. */
  boolean isRevoked(String tokenId);
}
