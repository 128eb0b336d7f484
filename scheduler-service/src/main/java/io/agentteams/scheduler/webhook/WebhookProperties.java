package io.agentteams.scheduler.webhook;

import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The webhook runtime's bounds; the lifecycle's share is checked as {@link RuntimeSettings}.
 *
 * @param connectTimeout the longest a connection to an agent may take to open
 * @param responseTimeout the longest to wait for an agent's answer; past it the push's outcome is
 *     unknown
 * @param maxResponseBytes the largest answer read; a larger one fails the job
 * @param maxAttempts attempts per push message (network errors before sending, 429, 5xx)
 * @param backoffBase the wait before the second attempt, before jitter; doubled for each next one
 * @param backoffMax the longest wait between attempts, also the cap on an agent's Retry-After
 * @param reconcileDelay how long after an unknown outcome the agent is asked again, with the same
 *     idempotency key
 * @param leaseTtl the lease of a pushed job: renewed before every attempt, and by the agent's
 *     heartbeats once it accepted the job (202); longer than the response time-out
 * @param pollInterval how often a replica looks for webhook jobs besides the database's signals
 * @param maxInFlight pushes one replica keeps in flight at once
 * @param deliveryRetention how long push records of ended jobs are kept
 * @param secretUpgradeInterval how often stored secrets still in plaintext or under an older
 *     at-rest key are encrypted with the current key (also once at start)
 */
@Validated
@ConfigurationProperties("agentteams.scheduler.webhook")
public record WebhookProperties(
    @DefaultValue("5s") Duration connectTimeout,
    @DefaultValue("30s") Duration responseTimeout,
    @DefaultValue("1MB") DataSize maxResponseBytes,
    @DefaultValue("5") int maxAttempts,
    @DefaultValue("1s") Duration backoffBase,
    @DefaultValue("60s") Duration backoffMax,
    @DefaultValue("10s") Duration reconcileDelay,
    @DefaultValue("60s") Duration leaseTtl,
    @DefaultValue("1s") Duration pollInterval,
    @DefaultValue("64") int maxInFlight,
    @DefaultValue("1d") Duration deliveryRetention,
    @DefaultValue("10m") Duration secretUpgradeInterval) {

  /**
   * These settings in the shape the runtime lifecycle reads, which checks them: the runtime's
   * adapter reads them when it is made, so a bad setting fails at start-up.
   */
  public RuntimeSettings settings() {
    return new RuntimeSettings(
        "agentteams.scheduler.webhook",
        connectTimeout,
        responseTimeout,
        maxAttempts,
        backoffBase,
        backoffMax,
        reconcileDelay,
        leaseTtl,
        pollInterval,
        maxInFlight,
        deliveryRetention);
  }
}
