package io.agentteams.mailbox.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.mailbox.MailboxServiceTest;
import io.agentteams.mailbox.message.application.Deliveries;
import io.agentteams.mailbox.message.application.DeliverySweeper;
import io.agentteams.mailbox.message.application.MessageSending;
import io.agentteams.mailbox.message.application.SendRequest;
import io.agentteams.mailbox.message.messaging.DeliverySubscription;
import io.agentteams.mailbox.message.persistence.DeliveryStore;
import io.agentteams.mailbox.support.DeliveryProbe;
import io.agentteams.mailbox.support.KillSwitch;
import io.agentteams.mailbox.support.MailboxApi;
import io.agentteams.mailbox.support.TeamFixture;
import io.agentteams.platform.consumer.EventListeners;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.roster.Rosters;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@MailboxServiceTest
class DeliveryIntegrationTest {

  private static final List<String> SENDERS =
      List.of("sender-1", "sender-2", "sender-3", "sender-4");
  private static final List<String> READERS =
      List.of("reader-1", "reader-2", "reader-3", "reader-4");
  private static final int PER_SENDER = 250;
  private static final String DELIVERY_GROUP = "mailbox-service." + DeliverySubscription.NAME;

  /** Where each sender pauses: 252, 452 and 700 of the 1,000 messages sent. */
  private static final int[] GATES = {63, 113, 175};

  @Autowired WebTestClient web;
  @Autowired JsonMapper json;
  @Autowired KafkaTemplate<Object, Object> kafka;
  @Autowired EventCodec codec;
  @Autowired Rosters rosters;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;
  @Autowired EventListeners listeners;
  @Autowired KillSwitch killSwitch;
  @Autowired KafkaAdmin kafkaAdmin;
  @Autowired MeterRegistry meters;
  @Autowired DeliverySweeper sweeper;
  @Autowired Deliveries deliveries;
  @Autowired DeliveryStore deliveryStore;
  @Autowired TransactionalOperator transactions;
  @Autowired MessageSending sending;

  private TeamFixture teams;
  private MailboxApi api;
  private DeliveryProbe probe;

  @BeforeEach
  void setUp() {
    teams = new TeamFixture(kafka, codec, rosters, tokens);
    api = new MailboxApi(web, json);
    probe = new DeliveryProbe(db);
  }

  @Test
  void aThousandMessagesReachTheirInboxesOnceInSendOrderThroughRestartsAndAKill() throws Exception {
    List<String> roster = new ArrayList<>(SENDERS);
    roster.addAll(READERS);
    var team = teams.team("owner-of-the-thousand", roster.toArray(String[]::new));
    ConcurrentMessageListenerContainer<String, String> consumer =
        listeners.container(DeliverySubscription.NAME);
    double duplicatesBefore = duplicatesSeenByTheDeliveryConsumer();
    int killsBefore = killSwitch.kills();
    AtomicInteger sent = new AtomicInteger();
    // Each sender waits at these of its messages until the test releases it, so the consumer is
    // restarted or killed with a known part of the stream sent and the rest still to come.
    List<CountDownLatch> gates =
        IntStream.range(0, GATES.length).mapToObj(g -> new CountDownLatch(1)).toList();
    // What each sender sent to each reader, in the order it sent them.
    Map<String, Map<String, List<String>>> expected = new LinkedHashMap<>();
    READERS.forEach(r -> expected.put(r, new LinkedHashMap<>()));

    ExecutorService senders = Executors.newFixedThreadPool(SENDERS.size());
    List<Future<?>> running = new ArrayList<>();
    for (String sender : SENDERS) {
      Map<String, List<String>> mine = new LinkedHashMap<>();
      READERS.forEach(r -> mine.put(r, new ArrayList<>()));
      // Sends go through the application service the controller calls (the HTTP layer is covered
      // elsewhere and would only slow this test down); the sender is the caller, as over HTTP.
      Caller.Member caller = new Caller.Member(team.ownerId(), team.id(), sender, null);
      running.add(
          senders.submit(
              () -> {
                for (int k = 0; k < PER_SENDER; k++) {
                  int gate = Arrays.binarySearch(GATES, k);
                  if (gate >= 0 && !gates.get(gate).await(120, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never released at gate " + gate);
                  }
                  String reader = READERS.get((k + SENDERS.indexOf(sender)) % READERS.size());
                  MessageSending.Sent message =
                      sending
                          .send(
                              caller,
                              team.id(),
                              new SendRequest(reader, false, sender + " #" + k, null, null, null))
                          .block();
                  mine.get(reader).add(message.queued().recorded().message().id().toString());
                  sent.incrementAndGet();
                }
                synchronized (expected) {
                  mine.forEach((reader, ids) -> expected.get(reader).put(sender, ids));
                }
                return null;
              }));
    }

    // First restart, while the senders carry on with the three quarters still to send.
    release(gates.get(0), sent, GATES[0]);
    consumer.stop();
    consumer.start();

    // The kill: the next delivery to commit is caught before its consumer acknowledges to Kafka.
    // The group's committed offsets at that moment are what a kill there leaves behind; the
    // consumer is stopped and they are put back, so the restarted consumer (what an orchestrator
    // does with a dead process) reads the killed batch, and what followed it, again from Kafka.
    killSwitch.arm();
    release(gates.get(1), sent, GATES[1]);
    Awaitility.await().atMost(Duration.ofSeconds(60)).until(killSwitch::holding);
    Map<TopicPartition, OffsetAndMetadata> atTheKill = committedOffsets();
    killSwitch.resume();
    consumer.stop();
    assertThat(committedOffsets()).as("acknowledged after the kill point").isNotEqualTo(atTheKill);
    restoreOffsets(atTheKill);
    double duplicatesBeforeRestart = duplicatesSeenByTheDeliveryConsumer();
    consumer.start();
    Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> duplicatesSeenByTheDeliveryConsumer() > duplicatesBeforeRestart);

    // Second restart, with 300 messages still to send.
    release(gates.get(2), sent, GATES[2]);
    consumer.stop();
    consumer.start();
    for (Future<?> sender : running) {
      sender.get(120, TimeUnit.SECONDS);
    }
    senders.shutdown();

    Awaitility.await()
        .atMost(Duration.ofSeconds(90))
        .until(() -> probe.delivered(team.id()) == 1000 && probe.queued(team.id()) == 0);

    // The kill happened after its transaction committed, and its records came again.
    assertThat(killSwitch.kills()).isEqualTo(killsBefore + 1);
    assertThat(killSwitch.copiesCommittedBeforeKill()).isPositive();
    assertThat(duplicatesSeenByTheDeliveryConsumer()).isGreaterThan(duplicatesBefore);

    for (String reader : READERS) {
      List<JsonNode> inbox = readWholeInbox(team, reader);
      List<String> ids = inbox.stream().map(m -> m.get("message_id").asString()).toList();
      List<String> sentToReader =
          expected.get(reader).values().stream().flatMap(List::stream).toList();

      assertThat(new HashSet<>(ids)).as("no duplicates for %s", reader).hasSize(ids.size());
      assertThat(ids)
          .as("nothing lost or foreign for %s", reader)
          .containsExactlyInAnyOrderElementsOf(sentToReader);
      assertThat(inbox.stream().map(m -> m.get("sequence").asLong()).toList())
          .as("inbox positions of %s", reader)
          .isEqualTo(IntStream.rangeClosed(1, ids.size()).mapToObj(Long::valueOf).toList());
      for (String sender : SENDERS) {
        List<String> fromSender =
            inbox.stream()
                .filter(m -> m.get("sender").asString().equals(sender))
                .map(m -> m.get("message_id").asString())
                .toList();
        assertThat(fromSender)
            .as("%s's messages to %s in send order", sender, reader)
            .isEqualTo(expected.get(reader).get(sender));
      }
    }
  }

  @Test
  void deliveringACopyDeliversEveryEarlierQueuedCopyOfThatRecipientFirst() {
    var team = teams.team("owner-prefix", "lead", "reader");
    whileDeliveryIsStopped(
        () -> {
          queueDirectsToTheReader(team, "m", 3);

          Integer delivered =
              transactions.transactional(deliveries.deliverUpTo(team.id(), "reader", 2)).block();

          assertThat(delivered).isEqualTo(2);
          assertThat(statuses(team.id(), "reader"))
              .containsExactly("delivered", "delivered", "queued");
        });
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.queued(team.id()) == 0);
  }

  @Test
  void theDeliveryConsumersStatementDeliversWithoutMakingItsTransactionWaitForTheDisk() {
    var team = teams.team("owner-relaxed", "lead", "reader");
    whileDeliveryIsStopped(
        () -> {
          queueDirectsToTheReader(team, "m", 2);

          String commitMode =
              transactions
                  .transactional(
                      deliveryStore
                          .deliverAll(List.of(new DeliveryStore.Target(team.id(), "reader", 2)))
                          .then(
                              db.sql("SHOW synchronous_commit")
                                  .map(row -> row.get(0, String.class))
                                  .one()))
                  .block();

          assertThat(commitMode).isEqualTo("off");
          assertThat(statuses(team.id(), "reader")).containsExactly("delivered", "delivered");
        });
  }

  @Test
  void theSweeperDeliversCopiesLeftQueuedInOrderAndTheirLateEventsChangeNothing() {
    var team = teams.team("owner-sweep", "lead", "reader");
    String lead = teams.member(team, "lead");
    whileDeliveryIsStopped(
        () -> {
          queueDirectsToTheReader(team, "left behind ", 3);
          assertThat(probe.queued(team.id())).isEqualTo(3);

          assertThat(sweeper.sweep(Duration.ZERO).block()).isGreaterThanOrEqualTo(3);
          assertThat(probe.queued(team.id())).isZero();
        });
    List<String> deliveredAtBySweeper = deliveredAt(team.id(), "reader");
    // The consumer now reads the three MessageQueued events it missed, then this one's.
    api.direct(team.id(), lead, "reader", "after the restart");
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.delivered(team.id()) == 4);

    List<JsonNode> inbox = readWholeInbox(team, "reader");
    assertThat(inbox.stream().map(m -> m.get("text").asString()).toList())
        .containsExactly("left behind 1", "left behind 2", "left behind 3", "after the restart");
    assertThat(deliveredAt(team.id(), "reader").subList(0, 3)).isEqualTo(deliveredAtBySweeper);
    // The sweeper acknowledged its three copies in one event; the late events added none.
    assertThat(deliveredEventsInOutbox(team.id())).isEqualTo(2);
  }

  @Test
  void deliveryLagIsMeasuredAndExposedWithTheBacklog() {
    var team = teams.team("owner-metrics", "lead", "reader");
    long lagsBefore = meters.get("agentteams.mailbox.delivery.lag").timer().count();

    api.direct(team.id(), teams.member(team, "lead"), "reader", "measure me");
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.delivered(team.id()) == 1);

    Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> meters.get("agentteams.mailbox.delivery.lag").timer().count() > lagsBefore);
    String metrics =
        web.get()
            .uri("/actuator/prometheus")
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(String.class)
            .returnResult()
            .getResponseBody();

    assertThat(metrics)
        .contains(
            "agentteams_mailbox_delivery_lag_seconds_bucket",
            "agentteams_mailbox_deliveries_queued",
            "agentteams_mailbox_deliveries_oldest_queued_seconds",
            "service=\"mailbox-service\"");
  }

  /** Waits until every sender reached the gate at its {@code k}-th message, then opens it. */
  /** Runs {@code body} with the delivery consumer stopped, so that what is sent stays queued. */
  private void whileDeliveryIsStopped(Runnable body) {
    ConcurrentMessageListenerContainer<String, String> consumer =
        listeners.container(DeliverySubscription.NAME);
    consumer.stop();
    try {
      body.run();
    } finally {
      consumer.start();
    }
  }

  /** The lead sends {@code count} direct messages to "reader", texts {@code prefix}1, 2, ... */
  private void queueDirectsToTheReader(TeamFixture.Team team, String prefix, int count) {
    for (int i = 1; i <= count; i++) {
      api.direct(team.id(), teams.member(team, "lead"), "reader", prefix + i);
    }
  }

  private void release(CountDownLatch gate, AtomicInteger sent, int k) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(120))
        .until(() -> sent.get() == k * SENDERS.size());
    gate.countDown();
  }

  private Map<TopicPartition, OffsetAndMetadata> committedOffsets() throws Exception {
    try (Admin admin = Admin.create(kafkaAdmin.getConfigurationProperties())) {
      return admin
          .listConsumerGroupOffsets(DELIVERY_GROUP)
          .partitionsToOffsetAndMetadata()
          .get(30, TimeUnit.SECONDS);
    }
  }

  /** Sets the stopped delivery consumer's group back to these offsets. */
  private void restoreOffsets(Map<TopicPartition, OffsetAndMetadata> offsets) {
    try (Admin admin = Admin.create(kafkaAdmin.getConfigurationProperties())) {
      // The coordinator accepts it once the stopped members have left the group.
      Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .ignoreExceptions()
          .until(
              () -> {
                admin
                    .alterConsumerGroupOffsets(DELIVERY_GROUP, offsets)
                    .all()
                    .get(10, TimeUnit.SECONDS);
                return true;
              });
    }
  }

  private double duplicatesSeenByTheDeliveryConsumer() {
    return meters
        .counter(
            "agentteams.consumer.events",
            "subscription",
            DeliverySubscription.NAME,
            "outcome",
            "duplicate")
        .count();
  }

  private List<JsonNode> readWholeInbox(TeamFixture.Team team, String reader) {
    List<JsonNode> messages = new ArrayList<>();
    String auth = teams.member(team, reader);
    while (true) {
      MailboxApi.Response page = api.inbox(team.id(), auth, null, null);
      assertThat(page.status()).isEqualTo(200);
      page.body().get("messages").forEach(messages::add);
      if (page.body().get("messages").isEmpty()) {
        return Collections.unmodifiableList(messages);
      }
    }
  }

  private List<String> statuses(UUID team, String recipient) {
    return db.sql(
            "SELECT status FROM delivery WHERE team_id = :team AND recipient = :r ORDER BY seq")
        .bind("team", team)
        .bind("r", recipient)
        .map(row -> row.get("status", String.class))
        .all()
        .collectList()
        .block();
  }

  private List<String> deliveredAt(UUID team, String recipient) {
    return db.sql(
            "SELECT delivered_at::text AS at FROM delivery WHERE team_id = :team AND recipient = :r"
                + " ORDER BY seq")
        .bind("team", team)
        .bind("r", recipient)
        .map(row -> row.get("at", String.class))
        .all()
        .collectList()
        .block();
  }

  private long deliveredEventsInOutbox(UUID team) {
    return db.sql(
            "SELECT count(*) AS n FROM platform.outbox WHERE message_key = :team"
                + " AND event_type = 'MessageDelivered'")
        .bind("team", team.toString())
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }
}
