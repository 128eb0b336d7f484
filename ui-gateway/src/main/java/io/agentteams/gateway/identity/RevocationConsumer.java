package io.agentteams.gateway.identity;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.token.TokensRevoked;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.kafka.PrivateGroupConsumerFactory;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.stereotype.Component;

/**
 * Reads the revocation topic into this replica's {@link RevokedTokens}: a consumer group of its own
 * (every replica sees every revocation), reading from the topic's start, so a replica that starts
 * refuses every revoked token still alive (the topic is kept far longer than any token lives).
 * {@link #caughtUp()} turns true once it has read up to the end offsets the topic had when its
 * partitions were assigned; until then the gateway's readiness ({@code revocations} in the
 * readiness group, {@link RevocationsHealthIndicator}) is down, so a new replica takes no traffic
 * before it knows every revocation.
 */
@Component
public class RevocationConsumer implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(RevocationConsumer.class);

  private final ConcurrentMessageListenerContainer<String, String> container;

  /** Per assigned partition, the end offset this replica must read up to before it is ready. */
  private final Map<TopicPartition, Long> behind = new ConcurrentHashMap<>();

  private volatile boolean assigned;

  @Autowired
  public RevocationConsumer(KafkaProperties kafka, EventCodec codec, RevokedTokens revoked) {
    this(kafka, codec, revoked, Topics.TOKEN_REVOCATIONS);
  }

  /** Reads {@code topic} instead (a test's own topic). */
  RevocationConsumer(KafkaProperties kafka, EventCodec codec, RevokedTokens revoked, String topic) {
    Map<String, Object> config = new LinkedHashMap<>(kafka.buildConsumerProperties());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "ui-gateway.revocations." + UUID.randomUUID());
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    ContainerProperties properties = new ContainerProperties(topic);
    properties.setAckMode(ContainerProperties.AckMode.MANUAL);
    properties.setMessageListener(
        (MessageListener<String, String>)
            (ConsumerRecord<String, String> record) -> {
              apply(codec, revoked, record.value());
              read(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
            });
    properties.setConsumerRebalanceListener(
        new ConsumerAwareRebalanceListener() {
          @Override
          public void onPartitionsAssigned(
              Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
            consumer
                .endOffsets(partitions)
                .forEach(
                    (partition, end) -> {
                      if (consumer.position(partition) < end) {
                        behind.put(partition, end);
                      }
                    });
            assigned = true;
          }
        });
    container =
        new ConcurrentMessageListenerContainer<>(
            new PrivateGroupConsumerFactory<>(config), properties);
    container.setBeanName("ui-gateway-revocations");
  }

  /**
   * Whether this replica has read the revocation topic up to the end offsets it had at assignment.
   */
  public boolean caughtUp() {
    return assigned && behind.isEmpty();
  }

  private void read(TopicPartition partition, long next) {
    behind.computeIfPresent(partition, (p, end) -> next >= end ? null : end);
  }

  private static void apply(EventCodec codec, RevokedTokens revoked, String value) {
    try {
      EventEnvelope envelope = codec.read(value);
      if (!TokensRevoked.TYPE.equals(envelope.type())) {
        return;
      }
      for (TokensRevoked.Token token : codec.data(envelope, TokensRevoked.class).tokens()) {
        revoked.revoke(token.id(), Instant.parse(token.expiresAt()));
      }
    } catch (RuntimeException e) {
      // A record this version cannot read is skipped, never a reason to stop reading the rest.
      log.warn("unreadable revocation record skipped: {}", e.toString());
    }
  }

  @Override
  public void start() {
    container.start();
  }

  @Override
  public void stop() {
    container.stop();
  }

  @Override
  public boolean isRunning() {
    return container.isRunning();
  }
}
