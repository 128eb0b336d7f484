package io.agentteams.platform.identity;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Tokens clients present at the gateway: development owner tokens, and member and worker tokens
 * this system mints. Only the gateway accepts them; services accept internal tokens only.
 */
public final class PublicTokens {

  private final CallerTokens tokens;

  public PublicTokens(CallerTokens tokens) {
    this.tokens = tokens;
  }

  public String issue(Caller caller, Duration ttl) {
    return tokens.issue(caller, ttl);
  }

  public Caller verify(@Nullable String token) {
    return tokens.verify(token);
  }
}
