package io.agentteams.scheduler.a2a;

import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The A2A runtime's bounds; the lifecycle's share is checked as {@link RuntimeSettings}.
 *
 * @param connectTimeout the longest a connection to an agent may take to open
 * @param responseTimeout the longest to wait for the answer to a one-shot call (the card,
 *     SendMessage, GetTask, CancelTask, ListTasks); past it a send's outcome is unknown
 * @param streamIdleTimeout the longest a stream may stay silent before it is taken as dropped (and
 *     the task followed by SubscribeToTask or GetTask)
 * @param maxResponseBytes the largest answer (or stream event) read
 * @param maxAttempts attempts to send one message (no connection, 429, 5xx)
 * @param backoffBase the wait before the second attempt, before jitter; doubled for each next one
 * @param backoffMax the longest wait between attempts
 * @param reconcileDelay how long after an unknown outcome the task is looked up again
 * @param leaseTtl the lease of a job being followed, renewed while its task is followed; longer
 *     than connect-timeout + response-timeout
 * @param taskPollInterval how often a task that cannot be streamed is read with GetTask
 * @param pollInterval how often a replica looks for A2A jobs (and cancels to carry over) besides
 *     the database's signals
 * @param maxInFlight jobs one replica follows at once
 * @param recordRetention how long task records of ended jobs are kept
 */
@Validated
@ConfigurationProperties("agentteams.scheduler.a2a")
public record A2aProperties(
    @DefaultValue("5s") Duration connectTimeout,
    @DefaultValue("30s") Duration responseTimeout,
    @DefaultValue("5m") Duration streamIdleTimeout,
    @DefaultValue("1MB") DataSize maxResponseBytes,
    @DefaultValue("5") int maxAttempts,
    @DefaultValue("1s") Duration backoffBase,
    @DefaultValue("60s") Duration backoffMax,
    @DefaultValue("10s") Duration reconcileDelay,
    @DefaultValue("60s") Duration leaseTtl,
    @DefaultValue("2s") Duration taskPollInterval,
    @DefaultValue("1s") Duration pollInterval,
    @DefaultValue("256") int maxInFlight,
    @DefaultValue("1d") Duration recordRetention) {

  /**
   * These settings in the shape the runtime lifecycle reads, which checks them: the runtime's
   * adapter reads them when it is made, so a bad setting fails at start-up.
   */
  public RuntimeSettings settings() {
    return new RuntimeSettings(
        "agentteams.scheduler.a2a",
        connectTimeout,
        responseTimeout,
        maxAttempts,
        backoffBase,
        backoffMax,
        reconcileDelay,
        leaseTtl,
        pollInterval,
        maxInFlight,
        recordRetention);
  }
}
