package io.agentteams.platform.test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;

/**
 * The raw floor the benchmarks measure beside their services: a KafkaTemplate send ({@code
 * acks=all}, idempotent, no linger) to a listener container (what {@code @KafkaListener} builds) on
 * the shared broker, on a topic of its own. A message's value starts with its 36-character id.
 */
public final class RawKafkaRoundTrip implements AutoCloseable {

  private final KafkaTemplate<String, String> template;
  private final ConcurrentMessageListenerContainer<String, String> listener;
  private final Arrivals arrivals;
  private final String topic = "bench-raw-" + UUID.randomUUID();

  public RawKafkaRoundTrip(TestInfrastructure infrastructure, int partitions, Duration timeout) {
    this.arrivals = new Arrivals(timeout);
    infrastructure.createTopics(partitions, List.of(topic));
    template =
        new KafkaTemplate<>(
            new DefaultKafkaProducerFactory<>(
                Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    infrastructure.kafkaBootstrapServers(),
                    ProducerConfig.ACKS_CONFIG,
                    "all",
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                    true,
                    ProducerConfig.LINGER_MS_CONFIG,
                    0,
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                    StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                    StringSerializer.class)));
    ContainerProperties properties = new ContainerProperties(topic);
    properties.setGroupId(topic);
    properties.setMessageListener(
        (MessageListener<String, String>)
            record -> arrivals.arrived(record.value().substring(0, 36)));
    listener =
        new ConcurrentMessageListenerContainer<>(
            new DefaultKafkaConsumerFactory<>(
                Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    infrastructure.kafkaBootstrapServers(),
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                    "earliest",
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                    StringDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                    StringDeserializer.class)),
            properties);
    listener.setConcurrency(2);
    listener.start();
    awaitAssignment(listener);
  }

  /** Sends {@code id + filler} under the key; completes on the broker's acknowledgement. */
  public CompletableFuture<?> send(String key, String id, String filler) {
    return template.send(topic, key, id + filler);
  }

  /** Waits until the listener received the message; returns when it did, in nanos. */
  public long awaitArrival(String id) throws InterruptedException {
    return arrivals.await(id);
  }

  /** Waits until a listener container has been given partitions. */
  public static void awaitAssignment(ConcurrentMessageListenerContainer<?, ?> container) {
    Awaitility.await("the listener gets partitions")
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                container.getAssignedPartitions() != null
                    && !container.getAssignedPartitions().isEmpty());
  }

  @Override
  public void close() {
    listener.stop();
    template.destroy();
  }
}
