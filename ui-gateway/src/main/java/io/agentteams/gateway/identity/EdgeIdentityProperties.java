package io.agentteams.gateway.identity;

import java.net.URI;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the gateway recognises people and agents, and the keys it alone holds (see {@link
 * GatewayKeys}; none has a default).
 *
 * @param internalSigningKeys a JSON Web Key Set of EC P-256 private keys; the first signs internal
 *     tokens, the services hold the public halves
 * @param edgeKeys a JSON Web Key Set of symmetric keys (256 bits or more) for the tokens clients
 *     present; the first signs, all verify
 * @param dispatchVerificationKeys the scheduler's public dispatch keys (JSON Web Key Set), for the
 *     job-scoped member tokens it hands to runtimes with each job
 * @param edgeIssuer the issuer of edge tokens
 * @param edgeAudience the audience of edge tokens (and of the scheduler's job-scoped ones)
 * @param devIdentityEnabled whether {@code POST /dev/tokens} hands out owner tokens to anyone who
 *     asks: the embedded stack's development identity, off by default
 * @param devTokenTtl how long a development owner token lives
 * @param memberTokenTtl how long a member token an owner mints lives
 * @param workerTokenTtl how long an agent worker token lives; a worker refreshes it before it
 *     expires ({@code POST /api/v1/agents/{agentId}/tokens/refresh})
 * @param oidc people's identity provider, when one is configured
 */
@Validated
@ConfigurationProperties("agentteams.gateway.identity")
public record EdgeIdentityProperties(
    @Nullable String internalSigningKeys,
    @Nullable String edgeKeys,
    @Nullable String dispatchVerificationKeys,
    @DefaultValue("agent-teams") String edgeIssuer,
    @DefaultValue("agent-teams-api") String edgeAudience,
    @DefaultValue("false") boolean devIdentityEnabled,
    @DefaultValue("12h") Duration devTokenTtl,
    @DefaultValue("8h") Duration memberTokenTtl,
    @DefaultValue("1h") Duration workerTokenTtl,
    @DefaultValue Oidc oidc) {

  /**
   * An OpenID Connect provider whose JWTs identify owners. Either nothing is set (no provider) or
   * both the issuer and the audience are: a token is accepted only when it names both, so a key set
   * alone, which would make any token signed by any of its keys an owner, refuses to start.
   *
   * @param issuerUri the issuer every token must name; its discovery document names the keys
   *     (unless jwkSetUri is set)
   * @param jwkSetUri where the signing keys are, to skip discovery
   * @param audience the audience every token must carry
   * @param ownerClaim the claim that names the owner
   */
  public record Oidc(
      @Nullable URI issuerUri,
      @Nullable URI jwkSetUri,
      @Nullable String audience,
      @DefaultValue("sub") String ownerClaim) {

    /** The setting for the issuer. */
    public static final String ISSUER_URI = "agentteams.gateway.identity.oidc.issuer-uri";

    /** The setting for the audience. */
    public static final String AUDIENCE = "agentteams.gateway.identity.oidc.audience";

    public Oidc {
      boolean any = issuerUri != null || jwkSetUri != null || audience != null;
      if (any && issuerUri == null) {
        throw new IllegalArgumentException(
            "an OpenID Connect provider needs its issuer: set " + ISSUER_URI);
      }
      if (any && (audience == null || audience.isBlank())) {
        throw new IllegalArgumentException(
            "an OpenID Connect provider needs the audience its tokens must carry: set " + AUDIENCE);
      }
    }

    public boolean configured() {
      return issuerUri != null;
    }
  }
}
