package io.agentteams.platform.consumer;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How event consumers retry and how long processed-event marks are kept.
 *
 * @param retries attempts after the first before an event goes to the dead-letter topic
 * @param initialBackoff pause before the first retry; doubles per retry
 * @param maxBackoff the longest pause between retries
 * @param handlerTimeout the longest one event's transaction may take
 * @param dedupeRetention how long processed marks are kept; longer than the topics' retention
 * @param maxBatch the most records applied in one transaction
 * @param instanceId a name of this replica that stays the same across its restarts (e.g. {@code
 *     mailbox-service-1}); when set, consumers join their groups as static members ({@code
 *     group.instance.id} = this name, the subscription and, with several threads, their number), so
 *     a replica restarted after a crash takes its partitions back at once instead of after the dead
 *     member's session time-out. Two running replicas must never share one. Unset: dynamic
 *     membership, where a clean stop hands partitions over at once.
 * @param leaveGroupOnClose whether a static member leaves its groups when it stops cleanly
 *     (SIGTERM, the application closing), so its partitions move to the other replicas at once
 *     instead of waiting out its session time-out; it then joins again as a new member (one
 *     rebalance). A replica that dies without stopping ({@code kill -9}, an OOM kill) sends nothing
 *     and still takes its partitions back under its name without a rebalance. Turn it off only
 *     where every replica comes back under its own name soon after a clean stop (a StatefulSet's
 *     rolling restart) and a rebalance costs more than that wait. Dynamic members always leave.
 * @param commitInterval how often a subscription's consumer commits the offsets it has applied (and
 *     on a rebalance and a clean stop). Events applied since the last commit are delivered again
 *     after a crash and skipped as duplicates by their processed marks, so this bounds only that
 *     replay; committing after every poll instead cost the broker's group coordinator one request
 *     per poll of every subscription.
 * @param closeTimeout the longest a consumer's close at a clean stop may take (with {@code
 *     leaveGroupOnClose}, the default), once its offsets are committed: it leaves its group at
 *     once, then waits for the broker to answer its fetch still in flight (up to {@code
 *     fetch.max.wait.ms}), which a stop does not need. Kafka's own default (30 s) unless set; the
 *     embedded stack sets 1 s.
 */
@Validated
@ConfigurationProperties("agentteams.consumer")
public record ConsumerProperties(
    @DefaultValue("4") int retries,
    @DefaultValue("200ms") Duration initialBackoff,
    @DefaultValue("5s") Duration maxBackoff,
    @DefaultValue("30s") Duration handlerTimeout,
    @DefaultValue("14d") Duration dedupeRetention,
    @DefaultValue("200") int maxBatch,
    @Nullable String instanceId,
    @DefaultValue("true") boolean leaveGroupOnClose,
    @DefaultValue("1s") Duration commitInterval,
    @DefaultValue("30s") Duration closeTimeout) {

  /** Settings with dynamic group membership. */
  public ConsumerProperties(
      int retries,
      Duration initialBackoff,
      Duration maxBackoff,
      Duration handlerTimeout,
      Duration dedupeRetention,
      int maxBatch) {
    this(
        retries,
        initialBackoff,
        maxBackoff,
        handlerTimeout,
        dedupeRetention,
        maxBatch,
        null,
        true,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30));
  }

  @ConstructorBinding
  public ConsumerProperties {
    if (retries < 0 || retries > 100) {
      throw new IllegalArgumentException("agentteams.consumer.retries must be 0..100");
    }
    if (maxBatch < 1 || maxBatch > 5000) {
      throw new IllegalArgumentException("agentteams.consumer.max-batch must be 1..5000");
    }
    if (commitInterval.isNegative() || commitInterval.isZero()) {
      throw new IllegalArgumentException("agentteams.consumer.commit-interval must be positive");
    }
    if (closeTimeout.isNegative() || closeTimeout.isZero()) {
      throw new IllegalArgumentException("agentteams.consumer.close-timeout must be positive");
    }
    if (instanceId != null && !instanceId.matches("[A-Za-z0-9._-]{1,200}")) {
      throw new IllegalArgumentException(
          "agentteams.consumer.instance-id must be 1..200 letters, digits, '.', '_' or '-'");
    }
  }
}
