package io.agentteams.gateway.limits;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Limits the gateway enforces before anything reaches a service.
 *
 * @param requestsPerSecond sustained requests one token may make (per gateway replica)
 * @param burst requests one token may make at once
 * @param maxBodyBytes the largest request body accepted
 * @param maxTrackedTokens tokens whose buckets are kept; idle ones are dropped beyond that
 */
@Validated
@ConfigurationProperties("agentteams.gateway.limits")
public record EdgeLimitProperties(
    @DefaultValue("50") double requestsPerSecond,
    @DefaultValue("100") int burst,
    @DefaultValue("1048576") long maxBodyBytes,
    @DefaultValue("100000") int maxTrackedTokens) {

  public EdgeLimitProperties {
    if (requestsPerSecond <= 0 || burst < 1 || maxBodyBytes < 1 || maxTrackedTokens < 1) {
      throw new IllegalArgumentException("agentteams.gateway.limits must be positive");
    }
  }
}
