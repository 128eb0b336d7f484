package io.agentteams.team.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JWEObject;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.agentteams.contracts.Topics;
import io.agentteams.contracts.agent.AgentRuntimeChanged;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.SecretKeys;
import io.agentteams.platform.secrets.SecretOpener;
import io.agentteams.platform.secrets.SecretRefused;
import io.agentteams.platform.secrets.SecretsAtRest;
import io.agentteams.platform.test.TestInfrastructure;
import io.agentteams.platform.testidentity.TestIdentity;
import io.agentteams.team.TeamServiceTest;
import io.agentteams.team.agents.application.AgentRuntimes;
import io.agentteams.team.agents.application.WebhookSecretUpgrade;
import io.agentteams.team.agents.persistence.AgentStore;
import io.agentteams.team.agents.persistence.WebhookSecretStore;
import io.agentteams.team.support.TeamApi;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * A webhook agent's signing secret leaves team-service only to its owner, once: on the runtimes
 * topic (and its dead-letter topic) it is a JWE sealed for the scheduler and bound to the agent,
 * and in the database a ciphertext under a key that is not there.
 */
@TeamServiceTest
class WebhookSecretsIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;
  @Autowired WebhookSecretUpgrade upgrade;
  @Autowired AgentStore agents;
  @Autowired AgentRuntimes runtimes;
  @Autowired TransactionalOperator transactions;
  TeamApi api;
  String owner;

  private final EventCodec codec = new EventCodec("test", Clock.systemUTC());
  private final SecretOpener scheduler =
      new SecretOpener(SecretKeys.unsealing(TestIdentity.unsealingKeys(), "scheduler"));

  @BeforeEach
  void setUp() {
    api = new TeamApi(web, tokens);
    owner = TeamApi.newOwner("sealed");
  }

  @Test
  void noSecretIsOnTheRuntimesTopicOrItsDeadLetterTopicOnlyAJweNamingTheAgentAndOwner()
      throws Exception {
    String first = register("hook");
    String second = rotate("hook");

    List<String> records =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> values(Topics.AGENT_RUNTIMES, "hook"), found -> found.size() == 2);
    List<String> everything = new ArrayList<>(values(Topics.AGENT_RUNTIMES, null));
    everything.addAll(values(Topics.deadLetter(Topics.AGENT_RUNTIMES), null));
    for (String secret : List.of(first, second)) {
      String bytes = secret.substring("whsec_".length());
      assertThat(everything)
          .as("no record on either topic holds the secret or its bytes")
          .noneMatch(value -> value.contains(secret) || value.contains(bytes));
    }
    for (String record : records) {
      assertThat(record).doesNotContain("whsec_");
      AgentRuntimeChanged change = codec.data(codec.read(record), AgentRuntimeChanged.class);
      JWEObject sealed = JWEObject.parse(change.sealedWebhookSecrets());
      assertThat(sealed.getHeader().getAlgorithm().getName()).isEqualTo("ECDH-ES+A256KW");
      assertThat(sealed.getHeader().getEncryptionMethod().getName()).isEqualTo("A256GCM");
      assertThat(sealed.getHeader().getKeyID())
          .isEqualTo(SecretKeys.sealing(TestIdentity.sealingKeys(), "k").get(0).getKeyID());
      assertThat(sealed.getHeader().getCustomParam("owner_id")).isEqualTo(owner);
      assertThat(sealed.getHeader().getCustomParam("agent_id")).isEqualTo("hook");
    }
    AgentRuntimeChanged rotated = codec.data(codec.read(records.get(1)), AgentRuntimeChanged.class);
    assertThat(scheduler.open(rotated.sealedWebhookSecrets(), binding("hook")))
        .containsEntry("current", second)
        .containsEntry("previous", first);
  }

  @Test
  void theDatabaseHoldsOnlyCiphertextThatTheConfiguredKeyAloneDecrypts() {
    String first = register("kept");
    String second = rotate("kept");

    Map<String, Object> row = row("kept");
    assertThat(row.get("secret")).isNotEqualTo(second);
    assertThat(row.get("previous_secret")).isNotEqualTo(first);
    assertThat(String.valueOf(row.get("secret")) + row.get("previous_secret"))
        .doesNotContain("whsec_")
        .doesNotContain(second.substring(6))
        .doesNotContain(first.substring(6));
    SecretsAtRest configured =
        new SecretsAtRest(SecretKeys.atRest(TestIdentity.teamSecretsKeys(), "team"));
    assertThat(row.get("secrets_key_id")).isEqualTo(configured.keyId());
    assertThat(configured.decrypt((String) row.get("secret"), column("kept", "secret")))
        .isEqualTo(second);
    assertThat(
            configured.decrypt(
                (String) row.get("previous_secret"), column("kept", "previous_secret")))
        .isEqualTo(first);

    SecretsAtRest another = new SecretsAtRest(SecretKeys.atRest(SecretKeys.generateAtRest(), "x"));
    assertThatThrownBy(() -> another.decrypt((String) row.get("secret"), column("kept", "secret")))
        .isInstanceOf(SecretRefused.class);
    assertThatThrownBy(
            () -> configured.decrypt((String) row.get("secret"), column("kept", "previous_secret")))
        .as("a ciphertext moved to another column does not open there")
        .isInstanceOf(SecretRefused.class);
  }

  @Test
  void aSecretStillInPlaintextIsEncryptedAndPublishedSealedAgain() throws Exception {
    register("legacy");
    // As a version before encryption kept it: plaintext, no key id.
    String legacy = "whsec_" + "A".repeat(43) + "=";
    db.sql(
            "UPDATE agent_webhook_secret SET secret = :secret, secrets_key_id = NULL"
                + " WHERE owner_id = :owner AND agent_id = 'legacy'")
        .bind("secret", legacy)
        .bind("owner", owner)
        .fetch()
        .rowsUpdated()
        .block();

    assertThat(upgrade.upgradeOnce().block()).isPositive();

    Map<String, Object> row = row("legacy");
    assertThat(row.get("secret")).isNotEqualTo(legacy);
    assertThat(row.get("secrets_key_id")).isNotNull();
    List<String> records =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> values(Topics.AGENT_RUNTIMES, "legacy"), found -> found.size() == 2);
    assertThat(records.get(1)).doesNotContain(legacy).doesNotContain("whsec_");
    AgentRuntimeChanged republished =
        codec.data(codec.read(records.get(1)), AgentRuntimeChanged.class);
    assertThat(scheduler.open(republished.sealedWebhookSecrets(), binding("legacy")))
        .containsEntry("current", legacy);
    assertThat(upgrade.upgradeOnce().block()).as("nothing is left to upgrade").isZero();
  }

  @Test
  void afterAnAtRestKeyRotationTheUpgradeEncryptsEveryRowWithTheNewKeyAndTheOldKeyCanGo() {
    String secret = register("rotating");
    List<OctetSequenceKey> newFirst =
        new ArrayList<>(SecretKeys.atRest(SecretKeys.generateAtRest(), "new"));
    newFirst.addAll(SecretKeys.atRest(TestIdentity.teamSecretsKeys(), "old"));
    SecretsAtRest rotatedKeys = new SecretsAtRest(newFirst);
    // This service as started again with the new key first and the old one second.
    WebhookSecretStore rotatedStore = new WebhookSecretStore(db, rotatedKeys);
    WebhookSecretUpgrade rotatedUpgrade =
        new WebhookSecretUpgrade(
            agents, rotatedStore, runtimes, transactions, new SimpleMeterRegistry());
    try {
      assertThat(rotatedUpgrade.upgradeOnce().block()).isPositive();

      Map<String, Object> row = row("rotating");
      assertThat(row.get("secrets_key_id")).isEqualTo(rotatedKeys.keyId());
      SecretsAtRest newKeyAlone = new SecretsAtRest(List.of(newFirst.get(0)));
      assertThat(newKeyAlone.decrypt((String) row.get("secret"), column("rotating", "secret")))
          .as("the old key is no longer needed")
          .isEqualTo(secret);
      assertThat(rotatedUpgrade.upgradeOnce().block()).isZero();
    } finally {
      // The rest of this context holds the old key only: every row (other tests' too) goes back.
      List<OctetSequenceKey> oldFirst = new ArrayList<>(newFirst.subList(1, 2));
      oldFirst.add(newFirst.get(0));
      new WebhookSecretUpgrade(
              agents,
              new WebhookSecretStore(db, new SecretsAtRest(oldFirst)),
              runtimes,
              transactions,
              new SimpleMeterRegistry())
          .upgradeOnce()
          .block();
    }
  }

  private String register(String agent) {
    Map<?, ?> registered =
        web.post()
            .uri("/api/v1/agents")
            .header("Authorization", api.owner(owner))
            .bodyValue(
                Map.of(
                    "id",
                    agent,
                    "name",
                    agent,
                    "runtime",
                    Map.of("kind", "webhook", "endpoint", "https://agents.example/" + agent)))
            .exchange()
            .expectStatus()
            .isCreated()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    return (String) registered.get("webhook_secret");
  }

  private String rotate(String agent) {
    Map<?, ?> rotated =
        web.post()
            .uri("/api/v1/agents/{id}/webhook-secret", agent)
            .header("Authorization", api.owner(owner))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    return (String) rotated.get("webhook_secret");
  }

  private Map<String, Object> row(String agent) {
    return db.sql(
            "SELECT secret, previous_secret, secrets_key_id FROM agent_webhook_secret"
                + " WHERE owner_id = :owner AND agent_id = :agent")
        .bind("owner", owner)
        .bind("agent", agent)
        .fetch()
        .one()
        .block();
  }

  private Map<String, String> binding(String agent) {
    return Map.of(AgentRuntimeChanged.OWNER_HEADER, owner, AgentRuntimeChanged.AGENT_HEADER, agent);
  }

  private Map<String, String> column(String agent, String column) {
    return Map.of("owner_id", owner, "agent_id", agent, "column", column);
  }

  /**
   * The values of every record on the topic, read from its start; with an agent, only that agent's
   * of this test's owner.
   */
  private List<String> values(String topic, String agent) {
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
      String key = agent == null ? null : AgentRuntimeChanged.key(owner, agent);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          if (key == null || key.equals(record.key())) {
            values.add(record.value());
          }
        }
      }
      return values;
    }
  }
}
