package io.agentteams.scheduler.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.agentteams.contracts.Topics;
import io.agentteams.contracts.agent.AgentRuntimeChanged;
import io.agentteams.platform.identity.SecretKeys;
import io.agentteams.platform.secrets.SecretRefused;
import io.agentteams.platform.secrets.SecretSealer;
import io.agentteams.platform.secrets.SecretsAtRest;
import io.agentteams.platform.test.TestInfrastructure;
import io.agentteams.platform.testidentity.TestIdentity;
import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.runtime.domain.PushAgent;
import io.agentteams.scheduler.runtime.messaging.SealedRuntimeChanges;
import io.agentteams.scheduler.runtime.persistence.PushAgentStore;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.webhook.domain.WebhookSigner;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The scheduler opens a webhook agent's secrets only from a seal made for its own key and for that
 * very agent, keeps them encrypted, and signs pushes with them.
 */
@SchedulerServiceTest
class SealedSecretsIntegrationTest extends SchedulerIntegrationTest {

  @Autowired PushAgentStore agents;
  @Autowired MeterRegistry meters;

  private final SecretSealer sealer =
      new SecretSealer(SecretKeys.sealing(TestIdentity.sealingKeys(), "sealing"));

  @Test
  void aSealedSecretForAgentXOnAgentYsRecordIsRefusedAndCountedWhileXsIsAppliedAndSignsItsPushes() {
    String owner = unique("owner");
    String x = unique("x");
    String y = unique("y");
    String secretX = "whsec_" + "X".repeat(43) + "=";
    String sealedForX = seal(owner, x, secretX, null);
    teams.runtimeChanged(webhook(owner, x, sealedForX, null, 1));
    PushAgent applied = awaitWebhook(owner, x);
    assertThat(applied.secret()).isEqualTo(secretX);

    double bindingBefore = refused("binding");
    teams.runtimeChanged(webhook(owner, y, sealedForX, null, 1));
    await().atMost(Duration.ofSeconds(30)).until(() -> refused("binding") == bindingBefore + 1);
    assertThat(agents.webhook(new AgentKey(owner, y)).blockOptional())
        .as("nothing of the refused change is applied")
        .isEmpty();
    // Another owner's record of an agent with the same id is refused too.
    String otherOwner = unique("owner");
    teams.runtimeChanged(webhook(otherOwner, x, sealedForX, null, 1));
    await().atMost(Duration.ofSeconds(30)).until(() -> refused("binding") == bindingBefore + 2);
    assertThat(agents.webhook(new AgentKey(otherOwner, x)).blockOptional()).isEmpty();

    // A push to X is signed with X's secret, the one its owner was shown.
    byte[] body = "{\"type\":\"job.offered\"}".getBytes(StandardCharsets.UTF_8);
    Instant now = Instant.now();
    assertThat(
            WebhookSigner.signature(
                applied.signingSecrets(now), "msg_1", now.getEpochSecond(), body))
        .isEqualTo(WebhookSigner.signature(List.of(secretX), "msg_1", now.getEpochSecond(), body));
  }

  @Test
  void aSealUnderAKeyIdTheSchedulerDoesNotHoldOrNoSealAtAllIsRefusedAndCounted() {
    String owner = unique("owner");
    String agent = unique("hook");
    SecretSealer stranger =
        new SecretSealer(
            SecretKeys.sealing(SecretKeys.publicSet(SecretKeys.generateUnsealing()), "other"));
    Map<String, Object> payload = Map.of(AgentRuntimeChanged.CURRENT, "whsec_stranger");

    double unknownBefore = refused("unknown-key");
    teams.runtimeChanged(
        webhook(owner, agent, stranger.seal(binding(owner, agent), payload), null, 1));
    await().atMost(Duration.ofSeconds(30)).until(() -> refused("unknown-key") == unknownBefore + 1);

    double missingBefore = refused("missing");
    teams.runtimeChanged(webhook(owner, agent, null, null, 2));
    await().atMost(Duration.ofSeconds(30)).until(() -> refused("missing") == missingBefore + 1);
    assertThat(agents.webhook(new AgentKey(owner, agent)).blockOptional()).isEmpty();
  }

  @Test
  void aRotatedSecretSignsAlongsideThePreviousAndBothAreKeptOnlyAsCiphertext() {
    String owner = unique("owner");
    String agent = unique("hook");
    String first = "whsec_" + "F".repeat(43) + "=";
    String second = "whsec_" + "S".repeat(43) + "=";
    teams.runtimeChanged(webhook(owner, agent, seal(owner, agent, first, null), null, 1));
    awaitWebhook(owner, agent);
    Instant until = Instant.now().plus(Duration.ofHours(24));
    teams.runtimeChanged(
        webhook(owner, agent, seal(owner, agent, second, first), until.toString(), 2));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> second.equals(awaitWebhook(owner, agent).secret()));

    PushAgent rotated = awaitWebhook(owner, agent);
    assertThat(rotated.signingSecrets(Instant.now())).containsExactly(second, first);
    Map<String, Object> row = row(owner, agent);
    assertThat(String.valueOf(row.get("secret")) + row.get("previous_secret"))
        .doesNotContain("whsec_")
        .doesNotContain("SSSS")
        .doesNotContain("FFFF");
    SecretsAtRest configured =
        new SecretsAtRest(SecretKeys.atRest(TestIdentity.schedulerSecretsKeys(), "scheduler"));
    assertThat(row.get("secrets_key_id")).isEqualTo(configured.keyId());
    assertThat(
            configured.decrypt(
                (String) row.get("secret"),
                Map.of("owner_id", owner, "agent_id", agent, "column", "secret")))
        .isEqualTo(second);
    SecretsAtRest another = new SecretsAtRest(SecretKeys.atRest(SecretKeys.generateAtRest(), "x"));
    assertThatThrownBy(
            () ->
                another.decrypt(
                    (String) row.get("secret"),
                    Map.of("owner_id", owner, "agent_id", agent, "column", "secret")))
        .isInstanceOf(SecretRefused.class);
  }

  @Test
  void aSecretKeptInPlaintextBeforeEncryptionIsEncryptedAndStillSigns() {
    String owner = unique("owner");
    String agent = unique("legacy");
    String secret = "whsec_" + "L".repeat(43) + "=";
    teams.runtimeChanged(webhook(owner, agent, seal(owner, agent, secret, null), null, 1));
    awaitWebhook(owner, agent);
    // As a version before encryption kept it: plaintext, no key id.
    db.sql(
            "UPDATE push_agent SET secret = :secret, secrets_key_id = NULL"
                + " WHERE owner_id = :owner AND agent_id = :agent")
        .bind("secret", secret)
        .bind("owner", owner)
        .bind("agent", agent)
        .fetch()
        .rowsUpdated()
        .block();

    assertThat(agents.encryptStale().block()).isPositive();

    assertThat(row(owner, agent).get("secret")).isNotEqualTo(secret);
    assertThat(row(owner, agent).get("secrets_key_id")).isNotNull();
    assertThat(awaitWebhook(owner, agent).secret()).isEqualTo(secret);
    assertThat(agents.encryptStale().block()).isZero();
  }

  @Test
  void afterAnAtRestKeyRotationEveryRowIsEncryptedWithTheNewKeyAndTheOldKeyCanGo() {
    String owner = unique("owner");
    String agent = unique("rotating");
    String secret = "whsec_" + "R".repeat(43) + "=";
    teams.runtimeChanged(webhook(owner, agent, seal(owner, agent, secret, null), null, 1));
    awaitWebhook(owner, agent);
    List<OctetSequenceKey> newFirst =
        new ArrayList<>(SecretKeys.atRest(SecretKeys.generateAtRest(), "new"));
    newFirst.addAll(SecretKeys.atRest(TestIdentity.schedulerSecretsKeys(), "old"));
    // This scheduler as started again with the new key first and the old one second.
    PushAgentStore rotated = new PushAgentStore(db, new SecretsAtRest(newFirst));
    try {
      assertThat(rotated.encryptStale().block()).isPositive();

      PushAgentStore newKeyAlone =
          new PushAgentStore(db, new SecretsAtRest(List.of(newFirst.get(0))));
      assertThat(newKeyAlone.webhook(new AgentKey(owner, agent)).block().secret())
          .as("the old key is no longer needed")
          .isEqualTo(secret);
      assertThat(row(owner, agent).get("secrets_key_id")).isEqualTo(newFirst.get(0).getKeyID());
    } finally {
      // The rest of this context holds the old key only: every row (other tests' too) goes back.
      List<OctetSequenceKey> oldFirst = new ArrayList<>(newFirst.subList(1, 2));
      oldFirst.add(newFirst.get(0));
      new PushAgentStore(db, new SecretsAtRest(oldFirst)).encryptStale().block();
    }
  }

  @Test
  void aChangeThatLandsOnTheDeadLetterTopicCarriesTheSealNeverThePlaintext() throws Exception {
    String owner = unique("owner");
    String agent = unique("dead");
    String secret = "whsec_" + "D".repeat(43) + "=";
    String sealed = seal(owner, agent, secret, null);
    // Unreadable data (a version that is no number) goes to the dead-letter topic at once.
    String key = AgentRuntimeChanged.key(owner, agent);
    String value =
        codec
            .write(codec.envelope(webhook(owner, agent, sealed, null, 1), key, owner, 1, null))
            .replace("\"version\":1", "\"version\":\"one\"");
    assertThat(value).contains("\"version\":\"one\"");
    kafkaSend(key, value);

    List<String> dead =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> values(Topics.deadLetter(Topics.AGENT_RUNTIMES), key), v -> !v.isEmpty());
    assertThat(dead).allSatisfy(v -> assertThat(v).contains(sealed).doesNotContain("whsec_"));
  }

  @Autowired org.springframework.kafka.core.KafkaTemplate<Object, Object> kafka;

  private void kafkaSend(String key, String value) {
    kafka.send(Topics.AGENT_RUNTIMES, key, value).join();
  }

  private PushAgent awaitWebhook(String owner, String agent) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> agents.webhook(new AgentKey(owner, agent)).block(), a -> a != null);
  }

  private double refused(String reason) {
    return meters.get(SealedRuntimeChanges.REFUSED).tag("reason", reason).counter().count();
  }

  private String seal(String owner, String agent, String current, @Nullable String previous) {
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put(AgentRuntimeChanged.CURRENT, current);
    if (previous != null) {
      payload.put(AgentRuntimeChanged.PREVIOUS, previous);
    }
    return sealer.seal(binding(owner, agent), payload);
  }

  private static Map<String, String> binding(String owner, String agent) {
    return Map.of(AgentRuntimeChanged.OWNER_HEADER, owner, AgentRuntimeChanged.AGENT_HEADER, agent);
  }

  private static AgentRuntimeChanged webhook(
      String owner,
      String agent,
      @Nullable String sealed,
      @Nullable String previousValidUntil,
      long version) {
    return new AgentRuntimeChanged(
        owner,
        agent,
        "webhook",
        "https://agents.example/" + agent,
        sealed,
        previousValidUntil,
        version);
  }

  private Map<String, Object> row(String owner, String agent) {
    return db.sql(
            "SELECT secret, previous_secret, secrets_key_id FROM push_agent"
                + " WHERE owner_id = :owner AND agent_id = :agent")
        .bind("owner", owner)
        .bind("agent", agent)
        .fetch()
        .one()
        .block();
  }

  /** The values of the topic's records under the key, read from its start. */
  private static List<String> values(String topic, String key) {
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.shared().kafkaBootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new StringDeserializer(),
            new StringDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      List<String> values = new ArrayList<>();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          if (key.equals(record.key())) {
            values.add(record.value());
          }
        }
      }
      return values;
    }
  }
}
