package io.agentteams.team.teams;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How member conversations are provisioned and reconciled.
 *
 * @param lease how long a worker's claim on a team lasts without renewal; after a crash the team is
 *     picked up again once it runs out
 * @param stepTimeout the longest one runtime call may take
 * @param maxAttempts attempts at one member's conversation before the round fails
 * @param retryBackoff the pause before the second attempt; doubles per attempt
 * @param maxRetryBackoff the longest such pause
 * @param reconcileInterval how often each instance looks for due provisioning
 * @param batchSize teams one look claims at most
 * @param concurrency teams one instance provisions at the same time
 */
@Validated
@ConfigurationProperties("agentteams.team.provisioning")
public record ProvisioningProperties(
    @DefaultValue("30s") Duration lease,
    @DefaultValue("10s") Duration stepTimeout,
    @DefaultValue("5") int maxAttempts,
    @DefaultValue("1s") Duration retryBackoff,
    @DefaultValue("1m") Duration maxRetryBackoff,
    @DefaultValue("2s") Duration reconcileInterval,
    @DefaultValue("16") int batchSize,
    @DefaultValue("4") int concurrency) {

  public ProvisioningProperties {
    if (stepTimeout.compareTo(lease) >= 0) {
      throw new IllegalArgumentException(
          "agentteams.team.provisioning.step-timeout must be shorter than the lease");
    }
    if (maxAttempts < 1 || batchSize < 1 || concurrency < 1) {
      throw new IllegalArgumentException(
          "agentteams.team.provisioning attempts, batch size and concurrency must be positive");
    }
    if (reconcileInterval.isZero() || reconcileInterval.isNegative()) {
      throw new IllegalArgumentException(
          "agentteams.team.provisioning.reconcile-interval must be positive");
    }
  }

  /** The pause after the given number of failed attempts. */
  public Duration backoff(int attempts) {
    long factor = 1L << Math.min(Math.max(attempts - 1, 0), 20);
    Duration pause = retryBackoff.multipliedBy(factor);
    return pause.compareTo(maxRetryBackoff) > 0 ? maxRetryBackoff : pause;
  }
}
