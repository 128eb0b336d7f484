package io.agentteams.platform.identity;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How internal caller tokens are verified (every service) and described (the gateway, which signs
 * them with keys of its own: {@code agentteams.gateway.identity.internal-signing-keys}).
 *
 * @param internalVerificationKeys the gateway's public keys as a JSON Web Key Set: required by
 *     every service, with no default (a service started without it refuses to start and names this
 *     setting); two keys while one is being rotated
 * @param issuer the issuer of internal tokens
 * @param audience the audience a service accepts internal tokens for; by default its own
 *     application name ({@link InternalAudiences}), so that a token for another service is refused
 * @param internalTokenTtl how long an internal token minted by the gateway lives
 */
@Validated
@ConfigurationProperties("agentteams.identity")
public record IdentityProperties(
    @Nullable String internalVerificationKeys,
    @DefaultValue("agent-teams-gateway") String issuer,
    @Nullable String audience,
    @DefaultValue("2m") Duration internalTokenTtl) {

  /** The setting that holds the services' verification keys. */
  public static final String VERIFICATION_KEYS = "agentteams.identity.internal-verification-keys";
}
