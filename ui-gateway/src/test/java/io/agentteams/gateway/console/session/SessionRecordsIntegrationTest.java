package io.agentteams.gateway.console.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.test.TestInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/** Two gateway replicas' session stores reading one sessions topic. */
class SessionRecordsIntegrationTest {

  private final String topic = "agentteams.console.sessions.test-" + UUID.randomUUID();
  private SessionRecords replicaA;
  private SessionRecords replicaB;

  @BeforeEach
  void start() {
    TestInfrastructure infrastructure = TestInfrastructure.shared();
    infrastructure.createTopics(1, List.of(topic));
    replicaA = replica(infrastructure);
    replicaB = replica(infrastructure);
    replicaA.start();
    replicaB.start();
  }

  @AfterEach
  void stop() {
    replicaA.stop();
    replicaB.stop();
  }

  private SessionRecords replica(TestInfrastructure infrastructure) {
    KafkaProperties kafka = new KafkaProperties();
    kafka.setBootstrapServers(List.of(infrastructure.kafkaBootstrapServers()));
    return new SessionRecords(
        kafka,
        new SessionProperties(Duration.ofHours(1), Duration.ofMinutes(1), topic),
        Clock.systemUTC(),
        new SimpleMeterRegistry());
  }

  private static ConsoleSession session(String owner) {
    return new ConsoleSession(
        UUID.randomUUID().toString(), owner, "dev", null, Instant.now().plus(Duration.ofHours(1)));
  }

  @Test
  void aSessionSignedOutOnOneReplicaIsRefusedOnTheOtherAndItsStreamThereCloses() {
    ConsoleSession alice = session("alice");
    replicaA.begin(alice).block(Duration.ofSeconds(30));
    await().atMost(Duration.ofSeconds(30)).until(() -> replicaB.admits(alice));

    AtomicBoolean closed = new AtomicBoolean();
    List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    Disposable stream =
        replicaB
            .untilSignedOut(
                alice,
                Flux.interval(Duration.ofMillis(50))
                    .map(tick -> ServerSentEvent.<String>builder().comment("tick").build()))
            .doOnNext(event -> events.add(String.valueOf(event.event())))
            .doOnComplete(() -> closed.set(true))
            .subscribe();
    try {
      replicaA.end(alice).block(Duration.ofSeconds(30));

      assertThat(replicaA.admits(alice)).isFalse();
      await().atMost(Duration.ofSeconds(30)).until(() -> !replicaB.admits(alice));
      await().atMost(Duration.ofSeconds(30)).untilTrue(closed);
      assertThat(events).last().isEqualTo(SessionRecords.SIGNED_OUT);
    } finally {
      stream.dispose();
    }
  }

  @Test
  void signingOutEverywhereEndsEverySessionOfThatOwnerOnEveryReplicaAndNoOtherOwners() {
    ConsoleSession laptop = session("bob");
    ConsoleSession phone = session("bob");
    ConsoleSession carol = session("carol");
    replicaA.begin(laptop).block(Duration.ofSeconds(30));
    replicaB.begin(phone).block(Duration.ofSeconds(30));
    replicaB.begin(carol).block(Duration.ofSeconds(30));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> replicaA.admits(phone) && replicaB.admits(laptop) && replicaA.admits(carol));

    replicaA.endAll("bob").block(Duration.ofSeconds(30));

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> !replicaB.admits(laptop) && !replicaB.admits(phone));
    assertThat(replicaA.admits(laptop)).isFalse();
    assertThat(replicaA.admits(phone)).isFalse();
    assertThat(replicaA.admits(carol)).isTrue();
    assertThat(replicaB.admits(carol)).isTrue();
    // A sign-in after "everywhere" is a new session, admitted.
    ConsoleSession again = session("bob");
    replicaA.begin(again).block(Duration.ofSeconds(30));
    assertThat(replicaA.admits(again)).isTrue();
  }

  @Test
  void aSessionNoReplicaRecordedIsRefused() {
    assertThat(replicaA.admits(session("alice"))).isFalse();
  }
}
