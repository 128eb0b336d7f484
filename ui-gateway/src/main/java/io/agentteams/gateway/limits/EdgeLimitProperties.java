package io.agentteams.gateway.limits;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Limits the gateway enforces before anything reaches a service. Rates are per gateway replica:
 * with N replicas behind a load balancer a principal may make up to N times as many requests.
 *
 * @param requestsPerSecond sustained requests one owner may make, across every token it holds or
 *     minted (its own, its agents' worker tokens, its members' tokens)
 * @param burst requests one owner may make at once
 * @param anonymousRequestsPerSecond sustained unauthenticated requests (no token, or a token that
 *     is refused) one client address may make
 * @param anonymousBurst unauthenticated requests one client address may make at once
 * @param maxBodyBytes the largest request body accepted
 * @param maxTrackedPrincipals owners whose buckets are kept; beyond that the least used are dropped
 *     (a dropped bucket was full or nearly so: busy buckets are the most used)
 * @param maxTrackedAddresses client addresses whose buckets are kept, in a table of their own so
 *     that a flood of addresses cannot push out an owner's bucket
 * @param maxStreamsPerPrincipal event streams one principal (an owner, an agent's worker, a team
 *     member) may hold open at once on one replica; beyond it, 429 until one closes
 */
@Validated
@ConfigurationProperties("agentteams.gateway.limits")
public record EdgeLimitProperties(
    @DefaultValue("50") double requestsPerSecond,
    @DefaultValue("100") int burst,
    @DefaultValue("5") double anonymousRequestsPerSecond,
    @DefaultValue("20") int anonymousBurst,
    @DefaultValue("1048576") long maxBodyBytes,
    @DefaultValue("100000") int maxTrackedPrincipals,
    @DefaultValue("100000") int maxTrackedAddresses,
    @DefaultValue("16") int maxStreamsPerPrincipal) {

  public EdgeLimitProperties {
    if (requestsPerSecond <= 0
        || burst < 1
        || anonymousRequestsPerSecond <= 0
        || anonymousBurst < 1
        || maxBodyBytes < 1
        || maxTrackedPrincipals < 1
        || maxTrackedAddresses < 1
        || maxStreamsPerPrincipal < 1) {
      throw new IllegalArgumentException("agentteams.gateway.limits must be positive");
    }
  }
}
