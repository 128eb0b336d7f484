package io.agentteams.gateway.identity;

/** A bearer token for the public API and how long it lives. */
public record TokenResponse(String accessToken, String tokenType, long expiresIn) {}
