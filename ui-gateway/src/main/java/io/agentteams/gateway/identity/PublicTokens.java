package io.agentteams.gateway.identity;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** Tokens the gateway hands to clients and accepts from them; never accepted by a service. */
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
