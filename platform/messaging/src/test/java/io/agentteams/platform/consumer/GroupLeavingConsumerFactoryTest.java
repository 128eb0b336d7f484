package io.agentteams.platform.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * The consumer holds back an unsubscribe until it closes (so the close can still leave the group),
 * but an unsubscribe followed by anything else is an unsubscribe as Kafka defines it. The leaving
 * itself is shown against a broker in {@link EventListenersIntegrationTest}.
 */
class GroupLeavingConsumerFactoryTest {

  /** Nothing is contacted: no call here needs the broker. */
  private final GroupLeavingConsumerFactory<String, String> factory =
      new GroupLeavingConsumerFactory<>(
          Map.of(
              ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
              "127.0.0.1:19599",
              ConsumerConfig.GROUP_ID_CONFIG,
              "unsubscribe-test",
              ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
              "replica-1",
              ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
              false,
              ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
              StringDeserializer.class,
              ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
              StringDeserializer.class),
          Duration.ofSeconds(30));

  @Test
  void anUnsubscribeNotFollowedByACloseTakesEffectBeforeTheConsumerIsUsedAgain() {
    try (var consumer = factory.createConsumer()) {
      TopicPartition partition = new TopicPartition("events", 0);
      consumer.subscribe(List.of("events"));
      consumer.unsubscribe();
      // Assigning while subscribed is refused: the subscription is gone.
      consumer.assign(List.of(partition));
      assertThat(consumer.assignment()).containsExactly(partition);

      consumer.unsubscribe();
      assertThatThrownBy(() -> consumer.poll(Duration.ZERO))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("not subscribed to any topics or assigned any partitions");
    }
  }
}
