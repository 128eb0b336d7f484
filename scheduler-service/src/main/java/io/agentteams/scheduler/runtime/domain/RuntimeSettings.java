package io.agentteams.scheduler.runtime.domain;

import java.time.Duration;

/**
 * The bounds of the leased-dispatch lifecycle every push runtime shares, checked in one place. Each
 * runtime's properties ({@code agentteams.scheduler.webhook.*}, {@code agentteams.scheduler.a2a.*})
 * hand theirs over in this shape, so their keys stay as documented.
 *
 * @param prefix the runtime's configuration prefix, named in the refusals
 * @param connectTimeout the longest a connection to an agent may take to open
 * @param responseTimeout the longest to wait for an agent's answer to one call
 * @param maxAttempts attempts to send one message (network errors before sending, 429, 5xx)
 * @param backoffBase the wait before the second attempt, before jitter; doubled for each next one
 * @param backoffMax the longest wait between attempts
 * @param reconcileDelay how long after an unknown outcome the job is reconciled
 * @param leaseTtl the lease of a job the runtime holds; longer than connect + response time-outs
 * @param pollInterval how often a replica looks for the runtime's jobs besides the database's
 *     signals
 * @param maxInFlight jobs one replica holds at once
 * @param recordRetention how long the runtime's records of ended jobs are kept
 */
public record RuntimeSettings(
    String prefix,
    Duration connectTimeout,
    Duration responseTimeout,
    int maxAttempts,
    Duration backoffBase,
    Duration backoffMax,
    Duration reconcileDelay,
    Duration leaseTtl,
    Duration pollInterval,
    int maxInFlight,
    Duration recordRetention) {

  public RuntimeSettings {
    if (leaseTtl.compareTo(responseTimeout.plus(connectTimeout)) <= 0) {
      throw new IllegalArgumentException(
          prefix
              + ".lease-ttl must exceed connect-timeout + response-timeout,"
              + " or a call in flight would lose its lease");
    }
    if (maxInFlight < 1) {
      throw new IllegalArgumentException(prefix + ".max-in-flight must be >= 1");
    }
    // Checked here so a bad setting fails at start-up.
    new RetryPolicy(maxAttempts, backoffBase, backoffMax);
  }

  /** The retry policy these settings describe. */
  public RetryPolicy retryPolicy() {
    return new RetryPolicy(maxAttempts, backoffBase, backoffMax);
  }

  /** How often a held job's lease is renewed while the runtime follows it: a third of its life. */
  public Duration heartbeatInterval() {
    return leaseTtl.dividedBy(3);
  }
}
