package io.agentteams.platform.outbox;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the outbox relay publishes and how long published rows are kept.
 *
 * @param relayEnabled whether this instance runs a relay (several may run at once)
 * @param pollInterval how often the relay looks for rows when no notification woke it
 * @param batchSize rows published per lane claim
 * @param concurrency steps this instance runs at the same time
 * @param lanesPerStep lanes one step claims together
 * @param stepTimeout the longest one claim-publish-mark step may take before it is abandoned
 * @param retryBackoff the first pause of a lane whose publish failed; doubles per attempt
 * @param maxRetryBackoff the longest such pause
 * @param retention how long published rows are kept before pruning
 * @param pruneInterval how often published rows and old processed-event marks are pruned
 * @param busyPollInterval how often a relay that published rows lately looks again; it gets no
 *     notifications while it is busy
 * @param idleAfter how long a relay finds nothing before it goes idle and asks to be notified again
 */
@Validated
@ConfigurationProperties("agentteams.outbox")
public record OutboxProperties(
    @DefaultValue("true") boolean relayEnabled,
    @DefaultValue("1s") Duration pollInterval,
    @DefaultValue("500") int batchSize,
    @DefaultValue("4") int concurrency,
    @DefaultValue("8") int lanesPerStep,
    @DefaultValue("30s") Duration stepTimeout,
    @DefaultValue("200ms") Duration retryBackoff,
    @DefaultValue("30s") Duration maxRetryBackoff,
    @DefaultValue("24h") Duration retention,
    @DefaultValue("1m") Duration pruneInterval,
    @DefaultValue("2ms") Duration busyPollInterval,
    @DefaultValue("100ms") Duration idleAfter) {

  public OutboxProperties {
    if (batchSize < 1 || batchSize > 10_000) {
      throw new IllegalArgumentException("agentteams.outbox.batch-size must be 1..10000");
    }
    if (concurrency < 1 || concurrency > Outbox.LANES) {
      throw new IllegalArgumentException(
          "agentteams.outbox.concurrency must be 1.." + Outbox.LANES);
    }
    if (lanesPerStep < 1 || lanesPerStep > Outbox.LANES) {
      throw new IllegalArgumentException(
          "agentteams.outbox.lanes-per-step must be 1.." + Outbox.LANES);
    }
    if (pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException("agentteams.outbox.poll-interval must be positive");
    }
    if (busyPollInterval.isNegative() || busyPollInterval.isZero()) {
      throw new IllegalArgumentException("agentteams.outbox.busy-poll-interval must be positive");
    }
    if (idleAfter.isNegative()) {
      throw new IllegalArgumentException("agentteams.outbox.idle-after must not be negative");
    }
  }

  /** Defaults as documented, for code that builds a relay without Spring. */
  public static OutboxProperties defaults() {
    return new OutboxProperties(
        true,
        Duration.ofSeconds(1),
        500,
        4,
        8,
        Duration.ofSeconds(30),
        Duration.ofMillis(200),
        Duration.ofSeconds(30),
        Duration.ofHours(24),
        Duration.ofMinutes(1),
        Duration.ofMillis(2),
        Duration.ofMillis(100));
  }

  /** A builder starting from these settings, for code that changes a few of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Changes some settings of a copy; {@link #build()} validates the result. */
  public static final class Builder {
    private final boolean relayEnabled;
    private Duration pollInterval;
    private int batchSize;
    private int concurrency;
    private int lanesPerStep;
    private final Duration stepTimeout;
    private Duration retryBackoff;
    private Duration maxRetryBackoff;
    private Duration retention;
    private final Duration pruneInterval;
    private Duration busyPollInterval;
    private Duration idleAfter;

    private Builder(OutboxProperties from) {
      relayEnabled = from.relayEnabled;
      pollInterval = from.pollInterval;
      batchSize = from.batchSize;
      concurrency = from.concurrency;
      lanesPerStep = from.lanesPerStep;
      stepTimeout = from.stepTimeout;
      retryBackoff = from.retryBackoff;
      maxRetryBackoff = from.maxRetryBackoff;
      retention = from.retention;
      pruneInterval = from.pruneInterval;
      busyPollInterval = from.busyPollInterval;
      idleAfter = from.idleAfter;
    }

    /** The safety-net poll interval, the busy poll interval and idle-after. */
    public Builder polling(Duration pollInterval, Duration busyPollInterval, Duration idleAfter) {
      this.pollInterval = pollInterval;
      this.busyPollInterval = busyPollInterval;
      this.idleAfter = idleAfter;
      return this;
    }

    /** Rows per lane claim, steps at once, lanes per step. */
    public Builder steps(int batchSize, int concurrency, int lanesPerStep) {
      this.batchSize = batchSize;
      this.concurrency = concurrency;
      this.lanesPerStep = lanesPerStep;
      return this;
    }

    /** The first and the longest pause of a lane whose publish failed. */
    public Builder retryBackoff(Duration retryBackoff, Duration maxRetryBackoff) {
      this.retryBackoff = retryBackoff;
      this.maxRetryBackoff = maxRetryBackoff;
      return this;
    }

    /** How long published rows are kept. */
    public Builder retention(Duration retention) {
      this.retention = retention;
      return this;
    }

    public OutboxProperties build() {
      return new OutboxProperties(
          relayEnabled,
          pollInterval,
          batchSize,
          concurrency,
          lanesPerStep,
          stepTimeout,
          retryBackoff,
          maxRetryBackoff,
          retention,
          pruneInterval,
          busyPollInterval,
          idleAfter);
    }
  }
}
