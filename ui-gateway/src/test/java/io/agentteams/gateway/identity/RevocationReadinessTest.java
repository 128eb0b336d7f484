package io.agentteams.gateway.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.token.TokensRevoked;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/**
 * A starting replica's readiness and the revocation topic: down before it has read the topic, and
 * once up, every revocation published before it started is refused.
 */
@RealInfrastructure
class RevocationReadinessTest {

  private final String bootstrap = TestInfrastructure.shared().kafkaBootstrapServers();
  private final EventCodec codec = new EventCodec("test", Clock.systemUTC());

  @Test
  void readinessStaysDownUntilEveryRevocationPublishedBeforeStartIsKnown() throws Exception {
    String topic = "revocations-test-" + UUID.randomUUID();
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
    }
    List<String> ids = new ArrayList<>();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < 300; i++) {
        String owner = "owner-" + (i % 7);
        String id = UUID.randomUUID().toString();
        ids.add(id);
        TokensRevoked event =
            new TokensRevoked(
                owner,
                List.of(
                    new TokensRevoked.Token(
                        id, Instant.now().plus(Duration.ofHours(1)).toString())));
        producer
            .send(
                new ProducerRecord<>(
                    topic,
                    TokensRevoked.key(owner),
                    codec.write(codec.envelope(event, owner, owner, i, null))))
            .get();
      }
    }
    KafkaProperties kafka = new KafkaProperties();
    kafka.setBootstrapServers(List.of(bootstrap));
    RevokedTokens revoked = new RevokedTokens(Clock.systemUTC(), new SimpleMeterRegistry());
    RevocationConsumer consumer = new RevocationConsumer(kafka, codec, revoked, topic);
    RevocationsHealthIndicator readiness = new RevocationsHealthIndicator(consumer);

    assertThat(readiness.health(false).getStatus()).isEqualTo(Status.DOWN);
    consumer.start();
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Status.UP.equals(readiness.health(false).getStatus()));
      assertThat(ids).allMatch(revoked::isRevoked);
    } finally {
      consumer.stop();
    }
  }

  @Test
  void anEmptyTopicIsCaughtUpOnceAssigned() throws Exception {
    String topic = "revocations-test-" + UUID.randomUUID();
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }
    KafkaProperties kafka = new KafkaProperties();
    kafka.setBootstrapServers(List.of(bootstrap));
    RevocationConsumer consumer =
        new RevocationConsumer(
            kafka, codec, new RevokedTokens(Clock.systemUTC(), new SimpleMeterRegistry()), topic);
    RevocationsHealthIndicator readiness = new RevocationsHealthIndicator(consumer);
    assertThat(readiness.health(false).getStatus()).isEqualTo(Status.DOWN);
    consumer.start();
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Status.UP.equals(readiness.health(false).getStatus()));
    } finally {
      consumer.stop();
    }
  }
}
