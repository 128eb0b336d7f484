package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.kafka.PrivateGroupConsumerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.MicrometerConsumerListener;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.stereotype.Component;

/**
 * Reads every event topic for this replica's feed: a consumer group of its own (so every replica
 * sees every event), starting at the end, committing nothing.
 */
@Component
public class FeedConsumer implements SmartLifecycle {

  private final ConcurrentMessageListenerContainer<String, String> container;

  public FeedConsumer(KafkaProperties kafka, TeamEventFeed feed, MeterRegistry meters) {
    Map<String, Object> config = new LinkedHashMap<>(kafka.buildConsumerProperties());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "ui-gateway.feed." + UUID.randomUUID());
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    ContainerProperties properties =
        new ContainerProperties(Topics.EVENT_TOPICS.toArray(String[]::new));
    properties.setAckMode(ContainerProperties.AckMode.MANUAL);
    properties.setMessageListener(
        (MessageListener<String, String>)
            (ConsumerRecord<String, String> record) ->
                feed.accept(record.topic(), record.offset(), record.value(), traceparent(record)));
    properties.setConsumerRebalanceListener(
        new ConsumerAwareRebalanceListener() {
          @Override
          public void onPartitionsAssigned(
              Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
            for (TopicPartition partition : partitions) {
              feed.assigned(
                  partition,
                  consumer.position(partition),
                  consumer.partitionsFor(partition.topic()).size());
            }
          }
        });
    PrivateGroupConsumerFactory<String, String> consumers =
        new PrivateGroupConsumerFactory<>(config);
    // Client metrics, among them how far the feed lags
    // (kafka_consumer_fetch_manager_records_lag_max).
    consumers.addListener(new MicrometerConsumerListener<>(meters));
    container = new ConcurrentMessageListenerContainer<>(consumers, properties);
    container.setBeanName("ui-gateway-feed");
  }

  private static @Nullable String traceparent(ConsumerRecord<String, String> record) {
    Header header = record.headers().lastHeader("traceparent");
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  /** Whether the consumer has its partitions, i.e. streams can vouch for completeness. */
  public boolean assigned() {
    return container.getAssignedPartitions() != null
        && !container.getAssignedPartitions().isEmpty();
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
