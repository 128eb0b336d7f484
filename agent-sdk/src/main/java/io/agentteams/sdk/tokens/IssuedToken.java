package io.agentteams.sdk.tokens;

/**
 * A bearer token the gateway issued.
 *
 * @param accessToken the token
 * @param tokenType always {@code Bearer}
 * @param expiresIn seconds it stays valid
 */
public record IssuedToken(String accessToken, String tokenType, long expiresIn) {}
