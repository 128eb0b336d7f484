package io.agentteams.platform.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.Topics;
import io.agentteams.platform.outbox.OutboxProperties;
import io.agentteams.platform.outbox.RelayCheckpoint;
import io.agentteams.platform.support.Effects;
import io.agentteams.platform.support.PlatformFixture;
import io.agentteams.platform.support.TestEvent;
import io.agentteams.platform.support.Writers;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

@RealInfrastructure
class EventListenersIntegrationTest {

  /** How long an event may take to be applied and counted on a loaded machine. */
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  private static final ConsumerProperties FAST_RETRIES =
      new ConsumerProperties(
          2,
          Duration.ofMillis(50),
          Duration.ofMillis(200),
          Duration.ofSeconds(30),
          Duration.ofDays(14),
          200);

  private PlatformFixture fixture;
  private Writers writers;
  private Effects effects;

  @BeforeEach
  void setUp(TestInfrastructure infrastructure) {
    fixture = new PlatformFixture(infrastructure, "listeners");
    writers = new Writers(fixture);
    effects = new Effects(fixture);
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
  }

  @Test
  void poisonEventsLandOnTheDeadLetterTopicWithTheReasonAndTheConsumerMovesOn() throws Exception {
    String topic = PlatformFixture.topic("poison");
    String deadLetters = Topics.deadLetter(topic);
    fixture.infrastructure.createTopics(1, List.of(topic, deadLetters));
    EventHandler failsOnPoison =
        event -> {
          if (fixture.codec.data(event, TestEvent.class).filler().equals("poison")) {
            return Mono.error(new IllegalStateException("handler cannot apply this event"));
          }
          return effects.logAs("poison-test").handle(event);
        };
    var listeners =
        fixture.listeners(
            FAST_RETRIES,
            List.of(new EventSubscription("poison-test", List.of(topic), 1, failsOnPoison)));
    listeners.start();

    try (var producer = fixture.relayProducer()) {
      producer.send(new ProducerRecord<>(topic, "team-p", "this is not an envelope")).get();
    }
    writers.write(topic, "team-p", "poison").block();
    writers.write(topic, "team-p", "fine").block();
    fixture.relay(OutboxProperties.defaults(), RelayCheckpoint.NONE).drain().block();

    var dlt = fixture.rawConsumer(List.of(deadLetters));
    var dead =
        PlatformFixture.readUntil(
            dlt, new ArrayList<>(), r -> r.size() >= 2, Duration.ofSeconds(60));
    assertThat(dead).extracting(r -> r.value()).first().isEqualTo("this is not an envelope");
    String firstReason =
        new String(
            dead.get(0).headers().lastHeader("kafka_dlt-exception-message").value(),
            StandardCharsets.UTF_8);
    String secondReason =
        new String(
            dead.get(1).headers().lastHeader("kafka_dlt-exception-message").value(),
            StandardCharsets.UTF_8);
    assertThat(firstReason).contains("not an event envelope");
    assertThat(secondReason).contains("handler cannot apply this event");

    // The good event after the poison ones was applied.
    await().atMost(PATIENCE).until(() -> effects.count("poison-test") == 1);
    // The outcome is counted after the dead letter is sent: wait for the count, do not race it.
    await()
        .atMost(PATIENCE)
        .untilAsserted(() -> assertThat(outcome("poison-test", "dead-lettered")).isEqualTo(2));
  }

  @Test
  void offsetsAreCommittedOnTheIntervalAndAtACleanStopSoARestartRepeatsNothing() throws Exception {
    String topic = PlatformFixture.topic("commits");
    fixture.infrastructure.createTopics(2, List.of(topic, Topics.deadLetter(topic)));
    String application = "commits-" + java.util.UUID.randomUUID();
    // An interval no step of this test waits for: only the stop can commit what was applied.
    ConsumerProperties rarely =
        new ConsumerProperties(
            2,
            Duration.ofMillis(50),
            Duration.ofMillis(200),
            Duration.ofSeconds(30),
            Duration.ofDays(14),
            200,
            null,
            true,
            Duration.ofHours(1),
            Duration.ofSeconds(30));
    List<EventSubscription> logging =
        List.of(new EventSubscription("commits", List.of(topic), 1, effects.logAs("commits")));
    EventListeners first = fixture.listeners(application, Map.of(), rarely, logging);
    first.start();
    for (int i = 0; i < 5; i++) {
      writers.write(topic, "team-c" + i, "event " + i).block();
    }
    fixture.relay(OutboxProperties.defaults(), RelayCheckpoint.NONE).drain().block();
    await().atMost(PATIENCE).until(() -> effects.count("commits") == 5);

    first.stop();

    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                fixture.infrastructure.kafkaBootstrapServers()))) {
      long committed =
          admin
              .listConsumerGroupOffsets(application + ".commits")
              .partitionsToOffsetAndMetadata()
              .get()
              .values()
              .stream()
              .mapToLong(offset -> offset.offset())
              .sum();
      assertThat(committed).as("every applied event's offset, committed at the stop").isEqualTo(5);
    }
    // A new consumer of the group starts after them: nothing is delivered again.
    EventListeners second = fixture.listeners(application, Map.of(), rarely, logging);
    second.start();
    writers.write(topic, "team-c0", "after the restart").block();
    fixture.relay(OutboxProperties.defaults(), RelayCheckpoint.NONE).drain().block();
    await().atMost(PATIENCE).until(() -> effects.count("commits") == 6);
    assertThat(outcome("commits", "duplicate")).isZero();
    second.stop();
  }

  @Test
  void aReplicaRestartedAfterACrashTakesItsPartitionsBackBeforeTheDeadMembersSessionEnds() {
    String topic = PlatformFixture.topic("rejoin");
    fixture.infrastructure.createTopics(2, List.of(topic, Topics.deadLetter(topic)));
    String application = "rejoin-" + java.util.UUID.randomUUID();
    // Long enough that waiting it out cannot pass for a rejoin within the wait below.
    Map<String, Object> slowSessions = Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 90_000);
    ConsumerProperties replicaOne =
        new ConsumerProperties(
            2,
            Duration.ofMillis(50),
            Duration.ofMillis(200),
            Duration.ofSeconds(30),
            Duration.ofDays(14),
            200,
            "replica-1",
            true,
            Duration.ofSeconds(1),
            Duration.ofSeconds(30));
    // The replica's previous life: it joined as the same static member (its one consumer thread is
    // number 0), then died without leaving the group.
    crashedMember(application + ".rejoin", "replica-1.rejoin-0", topic, slowSessions);

    List<String> handled = new CopyOnWriteArrayList<>();
    var listeners =
        fixture.listeners(
            application,
            slowSessions,
            replicaOne,
            List.of(
                new EventSubscription(
                    "rejoin",
                    List.of(topic),
                    1,
                    event -> {
                      handled.add(event.eventId().toString());
                      return Mono.empty();
                    })));
    assertThat(listeners.notJoined()).as("not ready before it runs").containsExactly("rejoin");
    listeners.start();
    writers.write(topic, "team-r", "after the restart").block();
    fixture.relay(OutboxProperties.defaults(), RelayCheckpoint.NONE).drain().block();

    await().atMost(Duration.ofSeconds(40)).until(() -> listeners.notJoined().isEmpty());
    await().atMost(Duration.ofSeconds(40)).until(() -> handled.size() == 1);
    listeners.stop();
    assertThat(listeners.notJoined()).as("not ready once stopped").containsExactly("rejoin");
  }

  @Test
  void aReplicaStoppedCleanlyLeavesItsGroupSoTheOtherTakesEveryPartitionBeforeItsSessionEnds()
      throws Exception {
    String topic = PlatformFixture.topic("handover");
    fixture.infrastructure.createTopics(4, List.of(topic, Topics.deadLetter(topic)));
    String application = "handover-" + java.util.UUID.randomUUID();
    String group = application + ".handover";
    // A static member that stops without leaving keeps its partitions this long.
    Map<String, Object> slowSessions = Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 90_000);
    var first = replica(application, slowSessions, "replica-1", topic);
    var second = replica(application, slowSessions, "replica-2", topic);
    first.start();
    second.start();

    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                fixture.infrastructure.kafkaBootstrapServers()))) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(partitionsByInstance(admin, group))
                      .as("both replicas hold partitions")
                      .containsOnlyKeys("replica-1.handover-0", "replica-2.handover-0")
                      .allSatisfy((instance, partitions) -> assertThat(partitions).isNotEmpty()));

      first.stop();

      // Half the session time-out: only a member that left is gone by then.
      await()
          .atMost(Duration.ofSeconds(45))
          .untilAsserted(
              () ->
                  assertThat(partitionsByInstance(admin, group))
                      .as("the stopped replica left; the other holds every partition")
                      .containsExactly(Map.entry("replica-2.handover-0", Set.of(0, 1, 2, 3))));
    }
  }

  private EventListeners replica(
      String application, Map<String, Object> settings, String instance, String topic) {
    return fixture.listeners(
        application,
        settings,
        new ConsumerProperties(
            2,
            Duration.ofMillis(50),
            Duration.ofMillis(200),
            Duration.ofSeconds(30),
            Duration.ofDays(14),
            200,
            instance,
            true,
            Duration.ofSeconds(1),
            Duration.ofSeconds(30)),
        List.of(new EventSubscription("handover", List.of(topic), 1, event -> Mono.empty())));
  }

  /**
   * The broker's view of a stable group: each member's instance id and the partitions assigned to
   * it. Empty before the group exists and while it rebalances, when assignments are not settled.
   */
  private static Map<String, Set<Integer>> partitionsByInstance(Admin admin, String group)
      throws Exception {
    ConsumerGroupDescription description;
    try {
      description = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return Map.of();
      }
      throw e;
    }
    if (description.groupState() != GroupState.STABLE) {
      return Map.of();
    }
    Map<String, Set<Integer>> partitions = new java.util.TreeMap<>();
    for (MemberDescription member : description.members()) {
      partitions.put(
          member.groupInstanceId().orElse(member.consumerId()),
          member.assignment().topicPartitions().stream()
              .map(TopicPartition::partition)
              .collect(Collectors.toSet()));
    }
    return partitions;
  }

  /** A consumer that joins the group as the static member, then stops without leaving it. */
  private void crashedMember(
      String group, String instance, String topic, Map<String, Object> settings) {
    Map<String, Object> config = new java.util.HashMap<>(settings);
    config.put(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, fixture.infrastructure.kafkaBootstrapServers());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    config.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instance);
    var consumer =
        new KafkaConsumer<>(
            config,
            new org.apache.kafka.common.serialization.StringDeserializer(),
            new org.apache.kafka.common.serialization.StringDeserializer());
    consumer.subscribe(List.of(topic));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              consumer.poll(Duration.ofMillis(200));
              return !consumer.assignment().isEmpty();
            });
    consumer.close(
        CloseOptions.groupMembershipOperation(
            CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP));
  }

  /** A second event type for the type filter. */
  record NoteEvent(String note) implements EventPayload {
    static final String TYPE = "NoteEvent";

    @Override
    public String eventType() {
      return TYPE;
    }
  }

  @Test
  void eventsOfTypesASubscriptionDoesNotActOnAreSkippedWithoutAMarkButUnreadableOnesStillFail() {
    String topic = PlatformFixture.topic("typed");
    fixture.infrastructure.createTopics(1, List.of(topic, Topics.deadLetter(topic)));
    List<String> handled = new CopyOnWriteArrayList<>();
    var listeners =
        fixture.listeners(
            FAST_RETRIES,
            List.of(
                new EventSubscription(
                        "typed",
                        List.of(topic),
                        1,
                        event -> {
                          handled.add(fixture.codec.data(event, NoteEvent.class).note());
                          return Mono.empty();
                        })
                    .onlyTypes(NoteEvent.TYPE)));
    listeners.start();

    writers.write(topic, "team-t", "skip me").block();
    fixture
        .transactions
        .transactional(fixture.outbox.append(topic, "team-t", "owner-1", 1, new NoteEvent("one")))
        .block();
    writers.write(topic, "team-t", "skip me too").block();
    try (var producer = fixture.relayProducer()) {
      producer.send(new ProducerRecord<>(topic, "team-t", "this is not an envelope")).get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    fixture
        .transactions
        .transactional(fixture.outbox.append(topic, "team-t", "owner-1", 2, new NoteEvent("two")))
        .block();
    fixture.relay(OutboxProperties.defaults(), RelayCheckpoint.NONE).drain().block();

    await().atMost(PATIENCE).until(() -> handled.size() == 2);
    assertThat(handled).containsExactly("one", "two");
    // Each outcome is counted once its record is settled, a moment after the handler ran.
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              assertThat(outcome("typed", "skipped")).isEqualTo(2);
              assertThat(outcome("typed", "applied")).isEqualTo(2);
              // The unreadable record was not skipped: it failed and went to the dead-letter
              // topic.
              assertThat(outcome("typed", "dead-lettered")).isEqualTo(1);
            });
    Long marks =
        fixture
            .db
            .sql("SELECT count(*) AS marks FROM platform.processed_event WHERE consumer LIKE :c")
            .bind("c", "%.typed")
            .map(row -> row.get("marks", Long.class))
            .one()
            .block();
    assertThat(marks).as("only the events it acted on are marked").isEqualTo(2);
  }

  private double outcome(String subscription, String outcome) {
    return fixture
        .meters
        .counter("agentteams.consumer.events", "subscription", subscription, "outcome", outcome)
        .count();
  }

  @Test
  void aRestartedConsumerAppliesEveryEventOnceInEachKeysOrder() {
    String topic = PlatformFixture.topic("restart");
    fixture.infrastructure.createTopics(4, List.of(topic, Topics.deadLetter(topic)));
    var listeners =
        fixture.listeners(
            FAST_RETRIES,
            List.of(
                new EventSubscription(
                    "restart-test", List.of(topic), 2, effects.logAs("restart-test"))));
    fixture.relay(OutboxProperties.defaults(), RelayCheckpoint.NONE).start();
    listeners.start();
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 100; i++) {
        writers.write(topic, "team-" + (i % 5), "r" + round).block();
      }
      listeners.container("restart-test").stop();
      listeners.container("restart-test").start();
    }
    await().atMost(PATIENCE).until(() -> effects.distinctEvents("restart-test") == 300);
    assertThat(effects.count("restart-test")).isEqualTo(300);
    for (int k = 0; k < 5; k++) {
      List<Long> order = effects.appliedOrder("restart-test", "team-" + k);
      assertThat(order).isSorted().hasSize(60);
    }
  }
}
