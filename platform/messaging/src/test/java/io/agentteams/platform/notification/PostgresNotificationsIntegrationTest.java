package io.agentteams.platform.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.support.PlatformFixture;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

@RealInfrastructure
class PostgresNotificationsIntegrationTest {

  /**
   * How long a notification, a reconnect or a catch-up may take on a loaded machine (Awaitility's
   * default of 10 s is not enough when other builds share the cores).
   */
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  private static final NotificationProperties QUICK_RECONNECT =
      new NotificationProperties(Duration.ofMillis(50), Duration.ofMillis(500));

  private PlatformFixture fixture;
  private final List<Disposable> subscriptions = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp(TestInfrastructure infrastructure) {
    fixture = new PlatformFixture(infrastructure, "notify");
  }

  @AfterEach
  void tearDown() throws Exception {
    subscriptions.forEach(Disposable::dispose);
    fixture.close();
  }

  @Test
  void oneConnectionServesEveryChannelAndSubscriberEachGettingItsChannelsNotifications() {
    PostgresNotifications listener = fixture.notifications(QUICK_RECONNECT);
    List<Notification> firstOfA = collect(listener.on("chan_a"));
    List<Notification> secondOfA = collect(listener.on("chan_a"));
    List<Notification> ofB = collect(listener.on("chan_b"));
    await().atMost(PATIENCE).until(() -> catchUps(firstOfA) == 1 && catchUps(ofB) == 1);

    notify("chan_a", "for a");
    notify("chan_b", "for b");
    await()
        .atMost(PATIENCE)
        .until(() -> received(firstOfA).size() == 1 && received(ofB).size() == 1);
    // A channel asked for while the connection listens is added to that connection.
    List<Notification> ofC = collect(listener.on("chan_c"));
    await().atMost(PATIENCE).until(() -> catchUps(ofC) == 1);
    notify("chan_c", "for c");
    await().atMost(PATIENCE).until(() -> received(ofC).size() == 1);

    assertThat(received(firstOfA)).containsExactly("for a");
    assertThat(received(secondOfA)).containsExactly("for a");
    assertThat(received(ofB)).containsExactly("for b");
    assertThat(received(ofC)).containsExactly("for c");
    assertThat(listeningSessions()).isEqualTo(1);
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(
                        fixture
                            .meters
                            .counter("agentteams.notifications.received", "channel", "chan_a")
                            .count())
                    .isEqualTo(1));
  }

  @Test
  void reconnectsAfterItsConnectionIsKilledAndItsSubscribersCatchUpOnWhatWasNotifiedMeanwhile() {
    fixture.db.sql("CREATE TABLE work (id int PRIMARY KEY)").then().block();
    PostgresNotifications listener = fixture.notifications(QUICK_RECONNECT);
    // The subscriber does as every subscriber does: on a notification or a catch-up, it looks.
    Set<Integer> found = ConcurrentHashMap.newKeySet();
    List<Notification> seen = new CopyOnWriteArrayList<>();
    subscriptions.add(
        listener
            .on("work")
            .doOnNext(seen::add)
            .concatMap(
                n ->
                    fixture
                        .db
                        .sql("SELECT id FROM work")
                        .map(row -> row.get("id", Integer.class))
                        .all()
                        .doOnNext(found::add)
                        .onErrorResume(e -> Flux.empty()))
            .subscribe());
    await().atMost(PATIENCE).until(() -> catchUps(seen) == 1 && connected() == 1);
    PostgresqlConnection writer = fixture.directConnection();

    // New sessions are refused until the write is done, so the listener is surely away for it.
    fixture.allowNewSessions(false);
    try {
      assertThat(fixture.killNotificationSessions()).isEqualTo(1);
      await().atMost(PATIENCE).until(() -> connected() == 0);
      await().atMost(PATIENCE).until(() -> reconnects() >= 2);
      execute(writer, "INSERT INTO work VALUES (1)");
      execute(writer, "NOTIFY work, '1'");
    } finally {
      fixture.allowNewSessions(true);
    }

    await().atMost(PATIENCE).until(() -> found.contains(1));
    assertThat(received(seen)).as("notified while away").doesNotContain("1");
    assertThat(catchUps(seen)).isEqualTo(2);
    await().atMost(PATIENCE).until(() -> connected() == 1);
    notify("work", "2");
    await().atMost(PATIENCE).until(() -> received(seen).contains("2"));
    // The killed session may linger in pg_stat_activity a moment after it was terminated.
    await().atMost(PATIENCE).until(() -> listeningSessions() == 1);
  }

  private List<Notification> collect(Flux<Notification> notifications) {
    List<Notification> sink = new CopyOnWriteArrayList<>();
    subscriptions.add(notifications.subscribe(sink::add));
    return sink;
  }

  private static long catchUps(List<Notification> notifications) {
    return notifications.stream().filter(Notification::catchUp).count();
  }

  private static List<String> received(List<Notification> notifications) {
    return notifications.stream().filter(n -> !n.catchUp()).map(Notification::payload).toList();
  }

  private void notify(String channel, String payload) {
    fixture
        .db
        .sql("SELECT pg_notify(:channel, :payload)")
        .bind("channel", channel)
        .bind("payload", payload)
        .then()
        .block();
  }

  private double connected() {
    return fixture.meters.get("agentteams.notifications.connected").gauge().value();
  }

  private double reconnects() {
    return fixture.meters.counter("agentteams.notifications.reconnects").count();
  }

  private long listeningSessions() {
    return fixture
        .db
        .sql(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()"
                + " AND application_name = :name")
        .bind("name", PostgresNotifications.APPLICATION_NAME)
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  private static void execute(PostgresqlConnection connection, String sql) {
    connection.createStatement(sql).execute().flatMap(r -> r.getRowsUpdated()).blockLast();
  }
}
