package io.agentteams.platform.identity;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How services verify the caller identity the gateway forwards.
 *
 * @param internalSecret the HMAC key shared by the gateway and the services (at least 32 bytes);
 *     the default is a DEVELOPMENT-ONLY value for the embedded stack and must be replaced in any
 *     deployment (the Helm chart takes it from a Secret)
 * @param issuer the issuer of internal tokens
 * @param audience the audience of internal tokens
 * @param internalTokenTtl how long an internal token minted by the gateway lives
 * @param publicSecret the HMAC key of the tokens clients present at the gateway (member and worker
 *     tokens minted by this system, development owner tokens); shared by the gateway and the
 *     services that mint such tokens (the scheduler's dispatch). The default is DEVELOPMENT ONLY.
 * @param publicIssuer the issuer of public tokens
 * @param publicAudience the audience of public tokens
 */
@Validated
@ConfigurationProperties("agentteams.identity")
public record IdentityProperties(
    @DefaultValue(DEVELOPMENT_SECRET) String internalSecret,
    @DefaultValue("agent-teams-gateway") String issuer,
    @DefaultValue("agent-teams-internal") String audience,
    @DefaultValue("2m") Duration internalTokenTtl,
    @DefaultValue(DEVELOPMENT_PUBLIC_SECRET) String publicSecret,
    @DefaultValue("agent-teams") String publicIssuer,
    @DefaultValue("agent-teams-api") String publicAudience) {

  /** DEVELOPMENT ONLY: the embedded stack's shared key. Never use it in a deployment. */
  public static final String DEVELOPMENT_SECRET =
      "dev-only-agent-teams-internal-key-change-me-0123456789";

  /** DEVELOPMENT ONLY: the embedded stack's key for client tokens. Never use it in a deployment. */
  public static final String DEVELOPMENT_PUBLIC_SECRET =
      "dev-only-agent-teams-public-key-change-me-0123456789";

  public IdentityProperties {
    if (internalSecret.length() < 32) {
      throw new IllegalArgumentException("agentteams.identity.internal-secret needs 32+ bytes");
    }
    if (publicSecret.length() < 32) {
      throw new IllegalArgumentException("agentteams.identity.public-secret needs 32+ bytes");
    }
    if (publicSecret.equals(internalSecret)) {
      throw new IllegalArgumentException("the public and internal token keys must differ");
    }
  }
}
