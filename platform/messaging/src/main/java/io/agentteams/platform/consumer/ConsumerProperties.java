package io.agentteams.platform.consumer;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
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
 */
@Validated
@ConfigurationProperties("agentteams.consumer")
public record ConsumerProperties(
    @DefaultValue("4") int retries,
    @DefaultValue("200ms") Duration initialBackoff,
    @DefaultValue("5s") Duration maxBackoff,
    @DefaultValue("30s") Duration handlerTimeout,
    @DefaultValue("14d") Duration dedupeRetention,
    @DefaultValue("200") int maxBatch) {

  public ConsumerProperties {
    if (retries < 0 || retries > 100) {
      throw new IllegalArgumentException("agentteams.consumer.retries must be 0..100");
    }
    if (maxBatch < 1 || maxBatch > 5000) {
      throw new IllegalArgumentException("agentteams.consumer.max-batch must be 1..5000");
    }
  }
}
