package io.agentteams.gateway.identity;

import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.gateway.routing.ServiceTokens;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.IdentityProperties;
import io.agentteams.platform.identity.TokenKeys;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The keys only the gateway holds: the private keys that sign internal tokens (services hold their
 * public halves), the edge keys of the tokens clients present, and the scheduler's public dispatch
 * keys. None has a default; a gateway started without one refuses to start and names the setting.
 */
@Configuration(proxyBeanMethods = false)
public class GatewayKeys {

  /** The gateway's setting for its internal signing keys. */
  public static final String INTERNAL_SIGNING_KEYS =
      "agentteams.gateway.identity.internal-signing-keys";

  /** The gateway's setting for its edge keys. */
  public static final String EDGE_KEYS = "agentteams.gateway.identity.edge-keys";

  /** The gateway's setting for the scheduler's public dispatch keys. */
  public static final String DISPATCH_VERIFICATION_KEYS =
      "agentteams.gateway.identity.dispatch-verification-keys";

  /** The issuer of the scheduler's job-scoped member tokens. */
  public static final String DISPATCH_ISSUER = "agent-teams-scheduler";

  /** Signs the internal token of every call the gateway makes, each for the service it calls. */
  @Bean
  ServiceTokens serviceTokens(
      EdgeIdentityProperties edge,
      IdentityProperties identity,
      ServiceEndpoints services,
      Clock clock) {
    var keys = TokenKeys.internalSigning(edge.internalSigningKeys(), INTERNAL_SIGNING_KEYS);
    return new ServiceTokens(
        services,
        audience -> CallerTokens.signing(keys, identity.issuer(), audience, clock),
        identity.internalTokenTtl());
  }

  /** The tokens clients present at the edge. */
  @Bean
  EdgeTokens edgeTokens(EdgeIdentityProperties edge, RevokedTokens revoked, Clock clock) {
    CallerTokens jobMembers =
        CallerTokens.verifying(
            TokenKeys.internalVerification(
                edge.dispatchVerificationKeys(), DISPATCH_VERIFICATION_KEYS),
            CallerTokens.JOB_MEMBER_TYPE,
            DISPATCH_ISSUER,
            edge.edgeAudience(),
            clock);
    return new EdgeTokens(
        TokenKeys.edge(edge.edgeKeys(), EDGE_KEYS),
        jobMembers,
        edge.edgeIssuer(),
        edge.edgeAudience(),
        revoked,
        clock);
  }
}
