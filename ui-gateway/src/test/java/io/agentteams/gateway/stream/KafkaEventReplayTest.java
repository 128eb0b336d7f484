package io.agentteams.gateway.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.util.unit.DataSize;

/**
 * Reading a team's missed events back from the broker: the team's records of the range in order,
 * and nothing (so the resume gets a reset) once retention deleted part of the range or the read
 * would pass its bound.
 */
@RealInfrastructure
class KafkaEventReplayTest {

  private final String team = UUID.randomUUID().toString();
  private final TopicPartition partition =
      new TopicPartition("replay-test-" + UUID.randomUUID(), 0);
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final String bootstrap = TestInfrastructure.shared().kafkaBootstrapServers();

  @BeforeEach
  void twentyRecordsHalfOfThemTheTeams() throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(partition.topic(), 1, (short) 1))).all().get();
    }
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < 20; i++) {
        String key = i % 2 == 0 ? team : "another-team";
        producer.send(new ProducerRecord<>(partition.topic(), key, "{\"n\":" + i + "}")).get();
      }
    }
  }

  private KafkaEventReplay replay(DataSize maxBytes) {
    KafkaProperties kafka = new KafkaProperties();
    kafka.setBootstrapServers(List.of(bootstrap));
    return new KafkaEventReplay(
        kafka,
        new StreamProperties(
            1000,
            100,
            1024,
            Duration.ofSeconds(15),
            DataSize.ofMegabytes(1),
            DataSize.ofMegabytes(64),
            maxBytes,
            Duration.ofSeconds(30),
            2),
        meters);
  }

  private double replays(String outcome) {
    return meters
        .get("agentteams.gateway.stream.replays")
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  @Test
  void readsTheTeamsRecordsOfTheRangeInOrder() {
    Optional<List<EventReplay.Missed>> missed =
        replay(DataSize.ofMegabytes(16))
            .missed(team, List.of(new EventReplay.Range(2, partition, 3, 14)));

    assertThat(missed).isPresent();
    assertThat(missed.get())
        .extracting(EventReplay.Missed::offset)
        .containsExactly(4L, 6L, 8L, 10L, 12L, 14L);
    assertThat(missed.get()).extracting(EventReplay.Missed::json).first().isEqualTo("{\"n\":4}");
    assertThat(missed.get()).allMatch(m -> m.topic() == 2);
    assertThat(replays("replayed")).isEqualTo(1);
  }

  @Test
  void aRangeRetentionAlreadyDeletedPartOfFindsNothing() throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(6))).all().get();
    }
    KafkaEventReplay replay = replay(DataSize.ofMegabytes(16));

    assertThat(replay.missed(team, List.of(new EventReplay.Range(0, partition, 2, 10)))).isEmpty();
    assertThat(replays("retention")).isEqualTo(1);
    assertThat(replay.missed(team, List.of(new EventReplay.Range(0, partition, 6, 10))))
        .hasValueSatisfying(
            found ->
                assertThat(found)
                    .extracting(EventReplay.Missed::offset)
                    .containsExactly(6L, 8L, 10L));
  }

  @Test
  void aReadPastItsByteBoundFindsNothing() {
    assertThat(
            replay(DataSize.ofBytes(100))
                .missed(team, List.of(new EventReplay.Range(0, partition, 0, 19))))
        .isEmpty();
    assertThat(replays("bound")).isEqualTo(1);
  }
}
