package io.agentteams.gateway.identity;

import java.net.URI;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the gateway recognises people and agents. The keys of the tokens this system mints live in
 * {@code agentteams.identity.*} (shared with the services that mint such tokens).
 *
 * @param devIdentityEnabled whether {@code POST /dev/tokens} hands out owner tokens to anyone who
 *     asks: the embedded stack's development identity, off by default
 * @param devTokenTtl how long a development owner token lives
 * @param memberTokenTtl how long a member token an owner mints lives
 * @param workerTokenTtl how long an agent worker token an owner mints lives
 * @param oidc people's identity provider, when one is configured
 */
@Validated
@ConfigurationProperties("agentteams.gateway.identity")
public record EdgeIdentityProperties(
    @DefaultValue("false") boolean devIdentityEnabled,
    @DefaultValue("12h") Duration devTokenTtl,
    @DefaultValue("24h") Duration memberTokenTtl,
    @DefaultValue("30d") Duration workerTokenTtl,
    @DefaultValue Oidc oidc) {

  /**
   * An OpenID Connect provider whose JWTs identify owners.
   *
   * @param issuerUri the issuer; its discovery document names the keys (unless jwkSetUri is set)
   * @param jwkSetUri where the signing keys are, to skip discovery
   * @param audience the audience the tokens must carry, if any
   * @param ownerClaim the claim that names the owner
   */
  public record Oidc(
      @Nullable URI issuerUri,
      @Nullable URI jwkSetUri,
      @Nullable String audience,
      @DefaultValue("sub") String ownerClaim) {

    public boolean configured() {
      return issuerUri != null || jwkSetUri != null;
    }
  }
}
