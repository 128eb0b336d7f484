package io.agentteams.gateway.apidocs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How {@code GET /v3/api-docs} gathers the services' descriptions.
 *
 * @param fetchTimeout how long one service's description may take: a service writes its own on the
 *     first request after it starts, which takes seconds on a loaded machine
 * @param cacheFor how long the merged document is served before it is gathered again
 */
@Validated
@ConfigurationProperties("agentteams.gateway.api-docs")
public record ApiDocsProperties(
    @DefaultValue("30s") Duration fetchTimeout, @DefaultValue("30s") Duration cacheFor) {

  public ApiDocsProperties {
    if (fetchTimeout.isZero() || fetchTimeout.isNegative() || cacheFor.isNegative()) {
      throw new IllegalArgumentException(
          "agentteams.gateway.api-docs: fetch-timeout must be positive, cache-for not negative");
    }
  }
}
