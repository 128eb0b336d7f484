package io.agentteams.platform.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.consumer.ConsumerProperties;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.support.Effects;
import io.agentteams.platform.support.PlatformFixture;
import io.agentteams.platform.support.TestEvent;
import io.agentteams.platform.support.Writers;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.NoTransactionException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

@RealInfrastructure
class OutboxIntegrationTest {

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
    fixture = new PlatformFixture(infrastructure, "outbox");
    writers = new Writers(fixture);
    effects = new Effects(fixture);
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
  }

  private static OutboxProperties relayProperties(int batchSize, int concurrency) {
    OutboxProperties d = OutboxProperties.defaults();
    return d.toBuilder()
        .polling(Duration.ofMillis(200), d.busyPollInterval(), d.idleAfter())
        .steps(batchSize, concurrency, 2)
        .retryBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
        .build();
  }

  @Test
  void relayKilledAfterTheBrokersAckButBeforeMarkingRowsPublishedLeadsToRedeliveryAndOneEffect() {
    String topic = PlatformFixture.topic("crash");
    fixture.infrastructure.createTopics(4, List.of(topic, Topics.deadLetter(topic)));
    var listeners =
        fixture.listeners(
            FAST_RETRIES,
            List.of(new EventSubscription("effects", List.of(topic), 2, effects.logAs("effects"))));
    listeners.start();
    for (int i = 0; i < 60; i++) {
      writers.write(topic, "team-" + (i % 6), "x").block();
    }

    List<Long> acknowledgedButUnmarked = new CopyOnWriteArrayList<>();
    OutboxRelay crashing =
        fixture.relay(
            relayProperties(500, 1),
            ids -> {
              acknowledgedButUnmarked.addAll(ids);
              return Mono.error(new IllegalStateException("relay killed before marking"));
            });
    crashing.drain().block();
    crashing.close();

    assertThat(acknowledgedButUnmarked).isNotEmpty();
    assertThat(pendingRows()).isEqualTo(60);

    OutboxRelay healthy = fixture.relay(relayProperties(500, 2), RelayCheckpoint.NONE);
    assertThat(healthy.drain().block()).isEqualTo(60);
    assertThat(pendingRows()).isZero();

    // The broker saw the crashed step's rows twice; the consumer applied every event once.
    var consumer = fixture.rawConsumer(List.of(topic));
    var records =
        PlatformFixture.readUntil(
            consumer,
            new ArrayList<>(),
            r -> r.size() >= 60 + acknowledgedButUnmarked.size(),
            Duration.ofSeconds(30));
    Map<String, Integer> copies = new HashMap<>();
    records.forEach(r -> copies.merge(eventId(r), 1, Integer::sum));
    assertThat(copies).hasSize(60);
    assertThat(copies.values().stream().filter(n -> n == 2).count())
        .isEqualTo(acknowledgedButUnmarked.size());
    // Wait until every event was applied and every redelivered copy was seen and skipped.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                effects.distinctEvents("effects") == 60
                    && duplicatesSeen("effects") == acknowledgedButUnmarked.size());
    assertThat(effects.count("effects")).isEqualTo(60);
    assertThat(effects.distinctEvents("effects")).isEqualTo(60);
  }

  @Test
  void twoRelaysAtOncePublishEveryRowOnceKeepingEachKeysOrder() {
    String topic = PlatformFixture.topic("two-relays");
    fixture.infrastructure.createTopics(4, List.of(topic));
    int keys = 40;
    int events = 2_000;
    OutboxRelay first = fixture.relay(relayProperties(25, 4), RelayCheckpoint.NONE);
    OutboxRelay second = fixture.relay(relayProperties(25, 4), RelayCheckpoint.NONE);
    Flux.range(0, events / 2)
        .flatMap(i -> writers.write(topic, "team-" + (i % keys), "before"), 8)
        .blockLast();
    first.start();
    second.start();
    // Keep writing while both relays run.
    Flux.range(events / 2, events / 2)
        .flatMap(i -> writers.write(topic, "team-" + (i % keys), "during"), 8)
        .blockLast();

    var consumer = fixture.rawConsumer(List.of(topic));
    var records =
        PlatformFixture.readUntil(
            consumer, new ArrayList<>(), r -> r.size() >= events, Duration.ofSeconds(60));
    await().atMost(Duration.ofSeconds(30)).until(() -> pendingRows() == 0);

    Set<String> ids = new HashSet<>();
    Map<String, List<Long>> positionsByKey = new HashMap<>();
    for (ConsumerRecord<String, String> record : records) {
      assertThat(ids.add(eventId(record))).as("published once: %s", eventId(record)).isTrue();
      TestEvent data = fixture.codec.data(fixture.codec.read(record.value()), TestEvent.class);
      positionsByKey.computeIfAbsent(record.key(), k -> new ArrayList<>()).add(data.position());
    }
    assertThat(ids).hasSize(events);
    assertThat(positionsByKey).hasSize(keys);
    positionsByKey.forEach(
        (key, positions) -> {
          List<Long> expected = new ArrayList<>();
          for (long p = 0; p < positions.size(); p++) {
            expected.add(p);
          }
          assertThat(positions).as("order of %s", key).isEqualTo(expected);
        });
    assertThat(first.publishedCount()).as("first relay published").isPositive();
    assertThat(second.publishedCount()).as("second relay published").isPositive();
    assertThat(first.publishedCount() + second.publishedCount()).isEqualTo(events);
  }

  @Test
  void writersNotifyOnlyWhileTheRelaysSayTheyAreIdle() {
    String topic = PlatformFixture.topic("notify");
    PostgresqlConnection listener = fixture.directConnection();
    List<Integer> notifiers = new CopyOnWriteArrayList<>();
    listener
        .createStatement("LISTEN " + OutboxRelay.CHANNEL)
        .execute()
        .flatMap(result -> result.getRowsUpdated())
        .blockLast();
    listener.getNotifications().subscribe(n -> notifiers.add(n.getProcessId()));

    setRelaysIdle(false);
    int busyWriter = writeReportingBackend(topic, "busy").block();
    setRelaysIdle(true);
    // Another session (the pool may hand the first writer's connection out again).
    PostgresqlConnection idleWriter = fixture.directConnection();
    int idleWriterPid =
        Flux.from(idleWriter.createStatement("SELECT pg_backend_pid() AS pid").execute())
            .flatMap(result -> result.map(row -> row.get("pid", Integer.class)))
            .blockLast();
    assertThat(idleWriterPid).isNotEqualTo(busyWriter);
    Flux.from(
            idleWriter
                .createStatement(
                    "INSERT INTO platform.outbox (event_id, topic, message_key, lane, event_type,"
                        + " payload) VALUES (gen_random_uuid(), $1, 'team-n', 0, 'Test', '{}')")
                .bind("$1", topic)
                .execute())
        .flatMap(result -> result.getRowsUpdated())
        .blockLast();

    // Notifications arrive in commit order, so once the second writer's is here, the first
    // writer's would be too had it sent one.
    await().atMost(Duration.ofSeconds(10)).until(() -> notifiers.contains(idleWriterPid));
    assertThat(notifiers).doesNotContain(busyWriter);
  }

  @Test
  void aWriteInFlightWhileTheRelayGoesIdleIsPublishedWithoutWaitingForThePoll() {
    String topic = PlatformFixture.topic("going-idle");
    fixture.infrastructure.createTopics(1, List.of(topic));
    setRelaysIdle(false);
    // The writer saw "busy" (so it will not notify) and has not committed yet.
    Sinks.One<Boolean> commit = Sinks.one();
    var written =
        fixture
            .transactions
            .transactional(
                writers
                    .writeInTransaction(topic, "team-i", "late")
                    .flatMap(envelope -> commit.asMono().thenReturn(envelope)))
            .toFuture();
    await().atMost(Duration.ofSeconds(10)).until(() -> relayStateLocks("ShareLock", true) == 1);

    OutboxProperties d = OutboxProperties.defaults();
    OutboxRelay relay =
        fixture.relay(
            d.toBuilder()
                .polling(Duration.ofHours(1), d.busyPollInterval(), Duration.ZERO)
                .steps(d.batchSize(), 1, d.lanesPerStep())
                .build(),
            RelayCheckpoint.NONE);
    relay.start();
    // Finding nothing, the relay goes idle, which waits for the writer.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> relayStateLocks("ExclusiveLock", false) == 1);
    assertThat(relaysIdle()).isFalse();

    commit.tryEmitValue(true);
    written.join();
    // Polling is an hour away: only the relay's look after going idle can publish the row.
    await().atMost(Duration.ofSeconds(30)).until(() -> pendingRows() == 0);
    assertThat(relay.publishedCount()).isEqualTo(1);
    // Having published, it says it is busy for a moment; finding nothing more, it goes idle again:
    // idle, busy, idle, as the state, the gauge and the counter of changes show.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                fixture.meters.counter("agentteams.outbox.relay.state.changes").count() >= 3
                    && fixture.meters.get("agentteams.outbox.relay.idle").gauge().value() == 1.0);
    assertThat(relaysIdle()).isTrue();
  }

  @Test
  void aBusyRelayIsWokenByThisProcesssCommitAndLooksNoMoreWhileNothingIsWritten() {
    String topic = PlatformFixture.topic("local-commit");
    fixture.infrastructure.createTopics(1, List.of(topic));
    // Writers see "busy", so they do not notify; the poll, the look after publishing and going
    // idle are all an hour away.
    setRelaysIdle(false);
    OutboxProperties d = OutboxProperties.defaults();
    OutboxRelay relay =
        fixture.relay(
            d.toBuilder()
                .polling(Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1))
                .steps(d.batchSize(), 1, d.lanesPerStep())
                .build(),
            RelayCheckpoint.NONE);
    relay.start();
    // Its first look, and listening (whose start asks for a catch-up look) before the write.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                looks() >= 1
                    && fixture.meters.get("agentteams.notifications.connected").gauge().value()
                        == 1.0);

    writers.write(topic, "team-l", "local").block();

    // Only the commit's signal can have woken it.
    await().atMost(Duration.ofSeconds(30)).until(() -> pendingRows() == 0);
    assertThat(relay.publishedCount()).isEqualTo(1);
    assertThat(looks())
        .as("the first look, the catch-up after listening began, the commit's: no polling")
        .isLessThanOrEqualTo(3);
    assertThat(relaysIdle()).isFalse();
  }

  @Test
  void aRowOfAWriterWithoutARelayIsPublishedWhileTheRelayLingersBusyWithoutThePoll() {
    String topic = PlatformFixture.topic("lingering");
    fixture.infrastructure.createTopics(1, List.of(topic));
    setRelaysIdle(false);
    OutboxProperties d = OutboxProperties.defaults();
    OutboxRelay relay =
        fixture.relay(
            d.toBuilder()
                .polling(Duration.ofHours(1), d.busyPollInterval(), Duration.ofMillis(300))
                .steps(d.batchSize(), 1, d.lanesPerStep())
                .build(),
            RelayCheckpoint.NONE);
    relay.start();
    writers.write(topic, "team-m", "local").block();
    await().atMost(Duration.ofSeconds(30)).until(() -> relay.publishedCount() == 1);

    // Another process's writer, with no relay to wake, sees "busy" and does not notify.
    PostgresqlConnection foreign = fixture.directConnection();
    Flux.from(
            foreign
                .createStatement(
                    "INSERT INTO platform.outbox (event_id, topic, message_key, lane, event_type,"
                        + " payload) VALUES (gen_random_uuid(), $1, 'team-m', 0, 'Test', '{}')")
                .bind("$1", topic)
                .execute())
        .flatMap(result -> result.getRowsUpdated())
        .blockLast();

    // The relay's look when idle-after is up finds it; the poll is an hour away.
    await().atMost(Duration.ofSeconds(30)).until(() -> pendingRows() == 0);
    assertThat(relay.publishedCount()).isEqualTo(2);
  }

  private double looks() {
    return fixture.meters.counter("agentteams.outbox.relay.looks").count();
  }

  @Test
  void anIdleRelayWhoseNotificationSessionIsKilledPublishesWhatWasWrittenMeanwhileWithoutThePoll() {
    String topic = PlatformFixture.topic("listener-lost");
    fixture.infrastructure.createTopics(1, List.of(topic));
    OutboxProperties d = OutboxProperties.defaults();
    OutboxRelay relay =
        fixture.relay(
            d.toBuilder()
                .polling(Duration.ofHours(1), d.busyPollInterval(), Duration.ZERO)
                .steps(d.batchSize(), 1, d.lanesPerStep())
                .build(),
            RelayCheckpoint.NONE);
    relay.start();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                relaysIdle()
                    && fixture.meters.get("agentteams.notifications.connected").gauge().value()
                        == 1.0);
    PostgresqlConnection writer = fixture.directConnection();

    // The relay's listening session is gone and cannot come back until the write committed: the
    // writer's notification reaches nobody.
    fixture.allowNewSessions(false);
    try {
      assertThat(fixture.killNotificationSessions()).isEqualTo(1);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> fixture.meters.get("agentteams.notifications.connected").gauge().value() == 0);
      Flux.from(
              writer
                  .createStatement(
                      "INSERT INTO platform.outbox (event_id, topic, message_key, lane, event_type,"
                          + " payload) VALUES (gen_random_uuid(), $1, 'team-k', 0, 'Test', '{}')")
                  .bind("$1", topic)
                  .execute())
          .flatMap(result -> result.getRowsUpdated())
          .blockLast();
    } finally {
      fixture.allowNewSessions(true);
    }

    // Polling is an hour away: the relay looks when its listener is back and catches up.
    await().atMost(Duration.ofSeconds(30)).until(() -> pendingRows() == 0);
    assertThat(relay.publishedCount()).isEqualTo(1);
    assertThat(fixture.meters.counter("agentteams.notifications.reconnects").count())
        .isGreaterThanOrEqualTo(1);
  }

  private int laneOf(String key) {
    return fixture
        .db
        .sql("SELECT (hashtext(:key) & 2147483647) % :lanes AS lane")
        .bind("key", key)
        .bind("lanes", Outbox.LANES)
        .map(row -> row.get("lane", Integer.class))
        .one()
        .block();
  }

  private void setRelaysIdle(boolean idle) {
    fixture
        .db
        .sql("UPDATE platform.outbox_relay_state SET relays_idle = :idle")
        .bind("idle", idle)
        .fetch()
        .rowsUpdated()
        .block();
  }

  private boolean relaysIdle() {
    return fixture
        .db
        .sql("SELECT relays_idle FROM platform.outbox_relay_state")
        .map(row -> row.get("relays_idle", Boolean.class))
        .one()
        .block();
  }

  private long relayStateLocks(String mode, boolean granted) {
    return fixture
        .db
        .sql(
            """
            SELECT count(*) AS locks FROM pg_locks
            WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database
                                                         WHERE datname = current_database())
              AND classid::bigint = :namespace AND objid = 0 AND objsubid = 2
              AND mode = :mode AND granted = :granted
            """)
        .bind("namespace", (long) OutboxRelay.RELAY_STATE_LOCK_NAMESPACE)
        .bind("mode", mode)
        .bind("granted", granted)
        .map(row -> row.get("locks", Long.class))
        .one()
        .block();
  }

  /** Writes one event and tells which database backend's transaction wrote it. */
  private Mono<Integer> writeReportingBackend(String topic, String filler) {
    return fixture.transactions.transactional(
        fixture
            .db
            .sql("SELECT pg_backend_pid() AS pid")
            .map(row -> row.get("pid", Integer.class))
            .one()
            .flatMap(pid -> writers.writeInTransaction(topic, "team-n", filler).thenReturn(pid)));
  }

  @Test
  void aTransactionThatRollsBackPublishesNothing() {
    String topic = PlatformFixture.topic("rollback");
    fixture.infrastructure.createTopics(1, List.of(topic));
    OutboxRelay relay = fixture.relay(relayProperties(100, 1), RelayCheckpoint.NONE);
    relay.start();

    Mono<EventEnvelope> doomed =
        fixture.transactions.transactional(
            writers
                .nextPosition("team-r")
                .flatMap(
                    p ->
                        fixture.outbox.append(
                            topic, "team-r", "owner-1", p, new TestEvent("team-r", p, "doomed")))
                .then(Mono.error(new IllegalStateException("business rule failed"))));
    assertThatThrownBy(doomed::block).hasMessageContaining("business rule failed");
    EventEnvelope marker = writers.write(topic, "team-r", "marker").block();

    var consumer = fixture.rawConsumer(List.of(topic));
    var records =
        PlatformFixture.readUntil(
            consumer,
            new ArrayList<>(),
            r -> r.stream().anyMatch(x -> eventId(x).equals(marker.eventId().toString())),
            Duration.ofSeconds(30));
    assertThat(records).hasSize(1);
    assertThat(
            fixture
                .codec
                .data(fixture.codec.read(records.get(0).value()), TestEvent.class)
                .filler())
        .isEqualTo("marker");
  }

  @Test
  void aChangeAndTheEventsOfTheRowsItChangedAreWrittenInOneStatement() {
    for (String key : List.of("k1", "k2", "k3")) {
      fixture
          .db
          .sql("INSERT INTO key_sequence (key, value) VALUES (:key, 0)")
          .bind("key", key)
          .fetch()
          .rowsUpdated()
          .block();
    }
    String change =
        "UPDATE key_sequence SET value = value + 1 WHERE key = ANY(:keys) AND value = 0"
            + " RETURNING key AS outbox_match, value";
    List<Outbox.RowEvent> events =
        List.of(
            new Outbox.RowEvent("k2", 1, new TestEvent("team-a", 2, "second")),
            new Outbox.RowEvent("k4", 1, new TestEvent("team-a", 4, "never")),
            new Outbox.RowEvent("k1", 1, new TestEvent("team-a", 1, "first")));

    List<String> changed =
        fixture
            .outbox
            .appendWithChange(
                change,
                spec -> spec.bind("keys", new String[] {"k1", "k2", "k4"}),
                row -> row.get("outbox_match", String.class),
                "topic",
                "team-a",
                "owner",
                events)
            .collectList()
            .block();
    List<String> again =
        fixture
            .outbox
            .appendWithChange(
                change,
                spec -> spec.bind("keys", new String[] {"k1", "k2"}),
                row -> row.get("outbox_match", String.class),
                "topic",
                "team-a",
                "owner",
                events)
            .collectList()
            .block();

    assertThat(changed).containsExactlyInAnyOrder("k1", "k2");
    assertThat(again).isEmpty();
    List<String> written =
        fixture
            .db
            .sql("SELECT payload FROM platform.outbox WHERE message_key = 'team-a' ORDER BY id")
            .map(
                row ->
                    fixture
                        .codec
                        .data(fixture.codec.read(row.get("payload", String.class)), TestEvent.class)
                        .filler())
            .all()
            .collectList()
            .block();
    assertThat(written).containsExactly("second", "first");
  }

  @Test
  void aChangeWithItsEventsInACallerTransactionCommitsAndRollsBackWithIt() {
    insertKeys("kc", "kr");
    String change =
        "UPDATE key_sequence SET value = value + 1 WHERE key = :key RETURNING key AS outbox_match";

    Mono<List<String>> doomed =
        fixture.transactions.transactional(
            appendWithChange(change, "kr", "team-t", "rolled back")
                .then(Mono.error(new IllegalStateException("business rule failed"))));
    assertThatThrownBy(doomed::block).hasMessageContaining("business rule failed");
    List<String> committed =
        fixture
            .transactions
            .transactional(appendWithChange(change, "kc", "team-t", "committed"))
            .block();

    assertThat(committed).containsExactly("kc");
    assertThat(keyValue("kr")).isZero();
    assertThat(keyValue("kc")).isEqualTo(1);
    assertThat(fillers("team-t")).containsExactly("committed");
  }

  @Test
  void aChangeWithEventsWaitsForTheKeysOrderingLockAndCommitsItsEventsAfterTheHolders() {
    insertKeys("kl");
    Sinks.Empty<Void> commitHolder = Sinks.empty();
    var holder =
        fixture
            .transactions
            .transactional(
                fixture
                    .outbox
                    .append("topic", "team-l", "owner", 1, new TestEvent("team-l", 1, "holder"))
                    .then(commitHolder.asMono()))
            .toFuture();
    await().atMost(Duration.ofSeconds(30)).until(() -> keyLocks(true) == 1);

    var waiter =
        appendWithChange(
                "UPDATE key_sequence SET value = value + 1 WHERE key = :key"
                    + " RETURNING key AS outbox_match",
                "kl",
                "team-l",
                "waiter")
            .toFuture();
    // Another key's lock is free: its change goes through while team-l's is held.
    insertKeys("ko");
    assertThat(
            appendWithChange(
                    "UPDATE key_sequence SET value = value + 1 WHERE key = :key"
                        + " RETURNING key AS outbox_match",
                    "ko",
                    "team-o",
                    "other key")
                .block())
        .containsExactly("ko");
    await().atMost(Duration.ofSeconds(30)).until(() -> keyLocks(false) == 1);

    assertThat(waiter).isNotDone();
    assertThat(keyValue("kl")).isZero();
    commitHolder.tryEmitEmpty();
    assertThat(waiter.join()).containsExactly("kl");
    holder.join();
    assertThat(keyValue("kl")).isEqualTo(1);
    assertThat(fillers("team-l")).containsExactly("holder", "waiter");
  }

  private Mono<List<String>> appendWithChange(
      String change, String changedKey, String eventKey, String filler) {
    return fixture
        .outbox
        .appendWithChange(
            change,
            spec -> spec.bind("key", changedKey),
            row -> row.get("outbox_match", String.class),
            "topic",
            eventKey,
            "owner",
            List.of(new Outbox.RowEvent(changedKey, 1, new TestEvent(eventKey, 1, filler))))
        .collectList();
  }

  private void insertKeys(String... keys) {
    for (String key : keys) {
      fixture
          .db
          .sql("INSERT INTO key_sequence (key, value) VALUES (:key, 0)")
          .bind("key", key)
          .fetch()
          .rowsUpdated()
          .block();
    }
  }

  private long keyValue(String key) {
    return fixture
        .db
        .sql("SELECT value FROM key_sequence WHERE key = :key")
        .bind("key", key)
        .map(r -> r.get("value", Long.class))
        .one()
        .block();
  }

  /** The outbox's per-key ordering locks in this database, granted or waited for. */
  private long keyLocks(boolean granted) {
    return fixture
        .db
        .sql(
            "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = :ns"
                + " AND objsubid = 2 AND granted = :granted AND database ="
                + " (SELECT oid FROM pg_database WHERE datname = current_database())")
        .bind("ns", Outbox.KEY_LOCK_NAMESPACE)
        .bind("granted", granted)
        .map(r -> r.get("n", Long.class))
        .one()
        .block();
  }

  private List<String> fillers(String key) {
    return fixture
        .db
        .sql("SELECT payload FROM platform.outbox WHERE message_key = :key ORDER BY id")
        .bind("key", key)
        .map(
            row ->
                fixture
                    .codec
                    .data(fixture.codec.read(row.get("payload", String.class)), TestEvent.class)
                    .filler())
        .all()
        .collectList()
        .block();
  }

  @Test
  void manyEventsAppendedInOneStatementArePublishedOnceEachInTheirOrderPerKey() {
    String topic = PlatformFixture.topic("append-all");
    fixture.infrastructure.createTopics(4, List.of(topic));
    OutboxRelay relay = fixture.relay(relayProperties(100, 2), RelayCheckpoint.NONE);
    relay.start();
    List<Outbox.Pending> pending = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String key = "team-" + (i % 3);
      pending.add(new Outbox.Pending(key, "owner-1", i, new TestEvent(key, i, "batch")));
    }
    List<EventEnvelope> written =
        fixture.transactions.transactional(fixture.outbox.appendAll(topic, pending)).block();
    assertThat(written).hasSize(30);
    assertThat(written.stream().map(EventEnvelope::teamId).toList())
        .isEqualTo(pending.stream().map(Outbox.Pending::teamId).toList());

    var consumer = fixture.rawConsumer(List.of(topic));
    var records =
        PlatformFixture.readUntil(
            consumer, new ArrayList<>(), r -> r.size() >= 30, Duration.ofSeconds(30));
    await().atMost(Duration.ofSeconds(30)).until(() -> pendingRows() == 0);
    assertThat(records.stream().map(OutboxIntegrationTest::eventId).distinct()).hasSize(30);
    Map<String, List<Long>> positionsByKey = new HashMap<>();
    for (ConsumerRecord<String, String> record : records) {
      TestEvent data = fixture.codec.data(fixture.codec.read(record.value()), TestEvent.class);
      positionsByKey.computeIfAbsent(record.key(), k -> new ArrayList<>()).add(data.position());
    }
    assertThat(positionsByKey.get("team-0"))
        .containsExactly(0L, 3L, 6L, 9L, 12L, 15L, 18L, 21L, 24L, 27L);
    assertThat(positionsByKey.get("team-1"))
        .containsExactly(1L, 4L, 7L, 10L, 13L, 16L, 19L, 22L, 25L, 28L);
    assertThat(positionsByKey.get("team-2"))
        .containsExactly(2L, 5L, 8L, 11L, 14L, 17L, 20L, 23L, 26L, 29L);
    var steps = fixture.meters.get("agentteams.outbox.relay.step.size").summary();
    assertThat(steps.totalAmount()).isEqualTo(30);
    assertThat(steps.count()).isBetween(1L, 30L);
    assertThat(fixture.meters.get("agentteams.outbox.lag").timer().count()).isEqualTo(30);

    Mono<List<EventEnvelope>> outside = fixture.outbox.appendAll(topic, pending);
    assertThatThrownBy(outside::block).isInstanceOf(NoTransactionException.class);
  }

  @Test
  void appendingOutsideATransactionIsRefused() {
    Mono<EventEnvelope> outside =
        fixture.outbox.append("any", "team-x", "owner-1", 1, new TestEvent("team-x", 1, "x"));
    assertThatThrownBy(outside::block).isInstanceOf(NoTransactionException.class);
    assertThat(pendingRows()).isZero();
  }

  @Test
  void aLaneWhosePublishFailsDoesNotHoldBackTheOtherLanesOfTheSameDrain() {
    String topic = PlatformFixture.topic("other-lanes");
    fixture.infrastructure.createTopics(1, List.of(topic));
    // The failing row is the oldest, so the first step publishes nothing at all.
    writers.write("bad topic!", "team-f", "x").block();
    List<String> keys = new ArrayList<>();
    for (int i = 0; keys.size() < 6; i++) {
      String key = "team-ok-" + i;
      if (laneOf(key) != laneOf("team-f")) {
        keys.add(key);
        writers.write(topic, key, "fine").block();
      }
    }
    OutboxProperties d = OutboxProperties.defaults();
    OutboxRelay relay =
        fixture.relay(
            d.toBuilder()
                .steps(100, 1, 2)
                .retryBackoff(Duration.ofMinutes(10), Duration.ofMinutes(10))
                .build(),
            RelayCheckpoint.NONE);

    assertThat(relay.drain().block()).isEqualTo(keys.size());
    assertThat(pendingRows()).isEqualTo(1);
  }

  @Test
  void aFailedPublishIsRecordedAndHoldsBackTheLaneUntilItSucceeds() {
    // A topic name Kafka rejects: every send fails at once.
    String badTopic = "bad topic!";
    writers.write(badTopic, "team-f", "x").block();
    OutboxProperties d = OutboxProperties.defaults();
    // A back-off far longer than the test, so "the lane backs off" holds however slow the machine.
    OutboxProperties longBackoff =
        d.toBuilder()
            .steps(100, 1, 1)
            .retryBackoff(Duration.ofMinutes(10), Duration.ofMinutes(10))
            .build();
    OutboxRelay relay = fixture.relay(longBackoff, RelayCheckpoint.NONE);
    assertThat(relay.drain().block()).isZero();
    // Still backing off: a second drain publishes nothing and records no second attempt.
    assertThat(relay.drain().block()).isZero();

    var row =
        fixture
            .db
            .sql("SELECT status, attempts, last_error FROM platform.outbox")
            .fetch()
            .one()
            .block();
    assertThat(row).containsEntry("status", "PENDING").containsEntry("attempts", 1);
    assertThat((String) row.get("last_error")).contains("InvalidTopicException");
    Boolean laneBacksOff =
        fixture
            .db
            .sql("SELECT bool_or(retry_at > now()) AS backs_off FROM platform.outbox_lane")
            .map(r -> r.get("backs_off", Boolean.class))
            .one()
            .block();
    assertThat(laneBacksOff).isTrue();
    assertThat(fixture.meters.counter("agentteams.outbox.publish.failures").count()).isEqualTo(1);
  }

  @Test
  void publishedRowsArePrunedAfterTheirRetentionAndPendingOnesAreKept() {
    String topic = PlatformFixture.topic("prune");
    fixture.infrastructure.createTopics(1, List.of(topic));
    for (int i = 0; i < 5; i++) {
      writers.write(topic, "team-p", "x").block();
    }
    fixture.relay(relayProperties(100, 1), RelayCheckpoint.NONE).drain().block();
    writers.write(topic, "team-p", "still pending").block();

    OutboxProperties d = OutboxProperties.defaults();
    OutboxProperties noRetention = d.toBuilder().retention(Duration.ZERO).build();
    new PlatformHousekeeping(fixture.db, noRetention, FAST_RETRIES, fixture.meters)
        .runOnce()
        .block();

    assertThat(rowCount()).isEqualTo(1);
    assertThat(pendingRows()).isEqualTo(1);
    assertThat(fixture.meters.get("agentteams.outbox.pending").gauge().value()).isEqualTo(1.0);
  }

  private long duplicatesSeen(String subscription) {
    return (long)
        fixture
            .meters
            .counter(
                "agentteams.consumer.events", "subscription", subscription, "outcome", "duplicate")
            .count();
  }

  private long pendingRows() {
    return fixture
        .db
        .sql("SELECT count(*) AS n FROM platform.outbox WHERE status = 'PENDING'")
        .map(r -> r.get("n", Long.class))
        .one()
        .block();
  }

  private long rowCount() {
    return fixture
        .db
        .sql("SELECT count(*) AS n FROM platform.outbox")
        .map(r -> r.get("n", Long.class))
        .one()
        .block();
  }

  private static String eventId(ConsumerRecord<String, String> record) {
    return new String(record.headers().lastHeader("event_id").value());
  }
}
