package io.agentteams.gateway.identity;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * The revocation topic, as the gateway's readiness sees it ({@code revocations} in the readiness
 * group): down until {@link RevocationConsumer} has read the topic up to the end offsets it had at
 * start, so a new replica serves no token its peers already refuse.
 */
@Component("revocationsHealthIndicator")
public class RevocationsHealthIndicator extends AbstractHealthIndicator {

  private final RevocationConsumer revocations;

  public RevocationsHealthIndicator(RevocationConsumer revocations) {
    super("the revocation topic's progress could not be read");
    this.revocations = revocations;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    if (revocations.caughtUp()) {
      builder.up();
    } else {
      builder.down();
    }
  }
}
