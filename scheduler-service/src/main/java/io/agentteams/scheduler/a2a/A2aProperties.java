package io.agentteams.scheduler.a2a;

import io.agentteams.scheduler.webhook.domain.RetryPolicy;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The A2A runtime's bounds.
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

  public A2aProperties {
    if (leaseTtl.compareTo(responseTimeout.plus(connectTimeout)) <= 0) {
      throw new IllegalArgumentException(
          "agentteams.scheduler.a2a.lease-ttl must exceed connect-timeout + response-timeout,"
              + " or a call in flight would lose its lease");
    }
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("agentteams.scheduler.a2a.max-in-flight must be >= 1");
    }
    new RetryPolicy(maxAttempts, backoffBase, backoffMax);
  }

  /** The retry policy these settings describe. */
  public RetryPolicy retryPolicy() {
    return new RetryPolicy(maxAttempts, backoffBase, backoffMax);
  }

  /** How often a followed job's lease is renewed: a third of its time to live. */
  public Duration heartbeatInterval() {
    return leaseTtl.dividedBy(3);
  }
}
