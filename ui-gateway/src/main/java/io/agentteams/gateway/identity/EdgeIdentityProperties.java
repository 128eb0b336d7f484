package io.agentteams.gateway.identity;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the gateway authenticates callers.
 *
 * @param publicSecret the HMAC key of tokens this gateway hands to clients (development owner
 *     tokens, and later member and worker tokens); the default is DEVELOPMENT ONLY and must be
 *     replaced in a deployment (the Helm chart takes it from a Secret)
 * @param publicIssuer the issuer of those tokens
 * @param publicAudience their audience
 * @param devIdentityEnabled whether {@code POST /dev/tokens} hands out owner tokens to anyone who
 *     asks: the embedded stack's built-in development identity, off by default
 * @param devTokenTtl how long a development owner token lives
 */
@Validated
@ConfigurationProperties("agentteams.gateway.identity")
public record EdgeIdentityProperties(
    @DefaultValue(DEVELOPMENT_SECRET) String publicSecret,
    @DefaultValue("agent-teams") String publicIssuer,
    @DefaultValue("agent-teams-api") String publicAudience,
    @DefaultValue("false") boolean devIdentityEnabled,
    @DefaultValue("12h") Duration devTokenTtl) {

  /** DEVELOPMENT ONLY: the embedded stack's key for client tokens. Never use it in a deployment. */
  public static final String DEVELOPMENT_SECRET =
      "dev-only-agent-teams-public-key-change-me-0123456789";
}
