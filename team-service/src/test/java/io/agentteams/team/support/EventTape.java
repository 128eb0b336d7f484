package io.agentteams.team.support;

import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Everything published on one topic (team events, or agent runtimes) in this test JVM, read from
 * the broker (not the outbox table) and grouped by team. Redelivered copies of an event (same event
 * id) count once.
 */
public final class EventTape {

  private static EventTape shared;
  private static EventTape agentRuntimes;
  private static EventTape tokenRevocations;

  private final KafkaConsumer<String, String> consumer;
  private final EventCodec codec = new EventCodec("tape", Clock.systemUTC());
  private final Map<String, LinkedHashMap<UUID, EventEnvelope>> byTeam = new HashMap<>();

  private EventTape(String bootstrapServers, String topic) {
    consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new StringDeserializer(),
            new StringDeserializer());
    List<PartitionInfo> partitions =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> consumer.partitionsFor(topic, Duration.ofSeconds(5)),
                p -> p != null && !p.isEmpty());
    List<TopicPartition> assigned =
        partitions.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    consumer.assign(assigned);
    consumer.seekToBeginning(assigned);
  }

  /** The tape of this JVM's broker; the application must have created the topic. */
  public static synchronized EventTape teamEvents() {
    if (shared == null) {
      shared =
          new EventTape(TestInfrastructure.shared().kafkaBootstrapServers(), Topics.TEAM_EVENTS);
    }
    return shared;
  }

  /** The tape of the agent runtimes topic, whose events are keyed by owner and agent. */
  public static synchronized EventTape agentRuntimes() {
    if (agentRuntimes == null) {
      agentRuntimes =
          new EventTape(TestInfrastructure.shared().kafkaBootstrapServers(), Topics.AGENT_RUNTIMES);
    }
    return agentRuntimes;
  }

  /** The tape of the token revocations topic, whose events are keyed by owner. */
  public static synchronized EventTape tokenRevocations() {
    if (tokenRevocations == null) {
      tokenRevocations =
          new EventTape(
              TestInfrastructure.shared().kafkaBootstrapServers(), Topics.TOKEN_REVOCATIONS);
    }
    return tokenRevocations;
  }

  /** The team's distinct events read so far, in publication order. */
  public synchronized List<EventEnvelope> of(UUID teamId) {
    return of(teamId.toString());
  }

  /** The distinct events of one key read so far, in publication order. */
  public synchronized List<EventEnvelope> of(String key) {
    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
      EventEnvelope event = codec.read(record.value());
      byTeam
          .computeIfAbsent(event.teamId(), k -> new LinkedHashMap<>())
          .putIfAbsent(event.eventId(), event);
    }
    LinkedHashMap<UUID, EventEnvelope> events = byTeam.get(key);
    return events == null ? List.of() : new ArrayList<>(events.values());
  }

  /** Reads until the team's events satisfy {@code done}, and returns them. */
  public List<EventEnvelope> awaitUntil(UUID teamId, Predicate<List<EventEnvelope>> done) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> of(teamId), done);
  }

  /** Reads until the team has an event of the type, and returns all of its events. */
  public List<EventEnvelope> awaitType(UUID teamId, String type) {
    return awaitUntil(teamId, events -> events.stream().anyMatch(e -> e.type().equals(type)));
  }

  /** The types of the events, in order. */
  public static List<String> types(List<EventEnvelope> events) {
    return events.stream().map(EventEnvelope::type).toList();
  }

  /** The codec the tape reads with, for tests that look into payloads. */
  public EventCodec codec() {
    return codec;
  }
}
