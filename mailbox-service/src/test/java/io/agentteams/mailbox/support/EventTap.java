package io.agentteams.mailbox.support;

import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a topic from the start, as another service would, and keeps one team's events. */
public final class EventTap {

  private final String bootstrapServers;
  private final EventCodec codec;

  public EventTap(String bootstrapServers, EventCodec codec) {
    this.bootstrapServers = bootstrapServers;
    this.codec = codec;
  }

  /** The team's events on the topic, in order, once {@code done} holds for them. */
  public List<EventEnvelope> read(
      String topic, UUID team, Predicate<List<EventEnvelope>> done, Duration timeout) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.GROUP_ID_CONFIG,
            "tap-" + UUID.randomUUID(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class);
    List<EventEnvelope> events = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of(topic));
      while (!done.test(events)) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("gave up waiting for events; got " + types(events));
        }
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          if (team.toString().equals(record.key())) {
            events.add(codec.read(record.value()));
          }
        }
      }
    }
    return events;
  }

  private static List<String> types(List<EventEnvelope> events) {
    return events.stream().map(EventEnvelope::type).toList();
  }
}
