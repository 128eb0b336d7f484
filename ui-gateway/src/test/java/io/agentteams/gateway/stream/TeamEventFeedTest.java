package io.agentteams.gateway.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.Topics;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.tracing.EventTracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;
import reactor.test.StepVerifier;

class TeamEventFeedTest {

  record Note(String text) implements EventPayload {
    @Override
    public String eventType() {
      return "Note";
    }
  }

  private final EventCodec codec = new EventCodec("test", Clock.systemUTC());
  private final String team = UUID.randomUUID().toString();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private TeamEventFeed feed;
  private long offset;
  // What the broker holds of the team-events topic (by offset), and how the feed asks for it.
  private final Map<Long, String> broker = new ConcurrentHashMap<>();
  private final List<EventReplay.Range> asked = new CopyOnWriteArrayList<>();
  private EventReplay replay = EventReplay.NONE;

  private void start(int window, int buffer) {
    start(window, 100, buffer, DataSize.ofMegabytes(1), DataSize.ofMegabytes(64));
  }

  private void start(
      int window, int teams, int buffer, DataSize bytesPerTeam, DataSize bytesTotal) {
    feed =
        new TeamEventFeed(
            codec,
            new StreamProperties(
                window,
                teams,
                buffer,
                Duration.ofSeconds(15),
                bytesPerTeam,
                bytesTotal,
                DataSize.ofMegabytes(16),
                Duration.ofSeconds(10),
                4),
            EventTracing.NONE,
            replay,
            meters);
    for (String topic : Topics.EVENT_TOPICS) {
      for (int p = 0; p < 4; p++) {
        feed.assigned(new TopicPartition(topic, p), 0, 4);
      }
    }
  }

  @BeforeEach
  void defaults() {
    start(100, 50);
  }

  private EventEnvelope publish(String owner, String text) {
    return publish(team, owner, text);
  }

  private EventEnvelope publish(String teamId, String owner, String text) {
    EventEnvelope envelope = codec.envelope(new Note(text), teamId, owner, 1, null);
    broker.put(offset, codec.write(envelope));
    feed.accept(Topics.TEAM_EVENTS, offset++, codec.write(envelope));
    return envelope;
  }

  @Test
  void aTeamsWindowKeepsAtMostItsBytesAndASubscriberWhoseCursorFellOutGetsAReset() {
    start(1000, 100, 50, DataSize.ofKilobytes(10), DataSize.ofMegabytes(1));
    EventCursor beginning = feed.position(team);
    String large = "x".repeat(1000);
    for (int i = 0; i < 50; i++) {
      publish("alice", i + large);
      assertThat(feed.retainedBytes()).isLessThanOrEqualTo(10 * 1024);
    }
    assertThat(feed.retainedBytes()).isGreaterThan(8 * 1024);

    List<TeamEventFeed.StreamItem> items =
        feed.stream(team, "alice", Optional.of(beginning), e -> true).take(2).collectList().block();
    assertThat(items.get(0)).isInstanceOf(TeamEventFeed.StreamItem.Reset.class);
    assertThat(items.get(1)).isInstanceOf(TeamEventFeed.StreamItem.Event.class);
  }

  @Test
  void tenThousandTeamsOfLargeEventsStayWithinTheTotalBoundAndADroppedTeamsCursorGetsAReset() {
    start(1000, 100_000, 50, DataSize.ofKilobytes(64), DataSize.ofMegabytes(1));
    String first = UUID.randomUUID().toString();
    EventCursor beforeFirst = feed.position(first);
    publish(first, "alice", "the first team's only event");
    String large = "y".repeat(4096);
    long most = 0;
    for (int i = 0; i < 10_000; i++) {
      publish(UUID.randomUUID().toString(), "bob", i + large);
      most = Math.max(most, feed.retainedBytes());
    }
    assertThat(most).as("40 MB offered, 1 MiB kept at most").isLessThanOrEqualTo(1024 * 1024);
    assertThat(feed.retainedBytes()).isGreaterThan(512 * 1024);

    // The first team's window was dropped: its subscriber is told to reload, not shown a gap.
    List<TeamEventFeed.StreamItem> items =
        feed.stream(first, "alice", Optional.of(beforeFirst), e -> true)
            .take(1)
            .collectList()
            .block(Duration.ofSeconds(5));
    assertThat(items).hasSize(1);
    assertThat(items.get(0)).isInstanceOf(TeamEventFeed.StreamItem.Reset.class);
  }

  private List<String> texts(List<TeamEventFeed.StreamItem> items) {
    return items.stream()
        .map(i -> ((TeamEventFeed.StreamItem.Event) i).event().json())
        .map(json -> codec.data(codec.read(json), Note.class).text())
        .toList();
  }

  @Test
  void aNewSubscriberGetsTheRetainedWindowThenLiveEvents() {
    publish("alice", "one");
    publish("alice", "two");
    StepVerifier.create(feed.stream(team, "alice", Optional.empty(), e -> true))
        .assertNext(i -> assertThat(texts(List.of(i))).containsExactly("one"))
        .assertNext(i -> assertThat(texts(List.of(i))).containsExactly("two"))
        .then(() -> publish("alice", "three"))
        .assertNext(i -> assertThat(texts(List.of(i))).containsExactly("three"))
        .thenCancel()
        .verify(Duration.ofSeconds(5));
  }

  @Test
  void aResumedSubscriberGetsExactlyWhatItMissedInOrder() {
    for (int i = 0; i < 10; i++) {
      publish("alice", "e" + i);
    }
    List<TeamEventFeed.StreamItem> firstFour =
        feed.stream(team, "alice", Optional.empty(), e -> true).take(4).collectList().block();
    EventCursor last = ((TeamEventFeed.StreamItem.Event) firstFour.get(3)).event().cursor();
    EventCursor resumed = EventCursor.parse(last.toString()).orElseThrow();
    for (int i = 10; i < 12; i++) {
      publish("alice", "e" + i);
    }
    List<TeamEventFeed.StreamItem> rest =
        feed.stream(team, "alice", Optional.of(resumed), e -> true).take(8).collectList().block();
    assertThat(texts(rest)).containsExactly("e4", "e5", "e6", "e7", "e8", "e9", "e10", "e11");
  }

  @Test
  void aCursorOlderThanTheWindowGetsAResetInsteadOfAGap() {
    start(5, 50);
    EventCursor beginning = null;
    for (int i = 0; i < 10; i++) {
      publish("alice", "e" + i);
      if (i == 0) {
        beginning =
            ((TeamEventFeed.StreamItem.Event)
                    feed.stream(team, "alice", Optional.empty(), e -> true).blockFirst())
                .event()
                .cursor();
      }
    }
    List<TeamEventFeed.StreamItem> items =
        feed.stream(team, "alice", Optional.of(beginning), e -> true).take(6).collectList().block();
    assertThat(items.get(0)).isInstanceOf(TeamEventFeed.StreamItem.Reset.class);
    assertThat(texts(items.subList(1, 6))).containsExactly("e5", "e6", "e7", "e8", "e9");
  }

  @Test
  void aCursorOlderThanTheWindowGetsWhatItMissedFromTheBrokerInsteadOfAReset() {
    replay =
        (teamId, ranges) -> {
          asked.addAll(ranges);
          List<EventReplay.Missed> found = new ArrayList<>();
          for (EventReplay.Range range : ranges) {
            for (long at = range.from(); at <= range.to(); at++) {
              String json = broker.get(at);
              if (json != null) {
                found.add(new EventReplay.Missed(range.topic(), at, at, json));
              }
            }
          }
          return Optional.of(found);
        };
    start(5, 50);
    EventCursor beginning = null;
    for (int i = 0; i < 10; i++) {
      publish("alice", "e" + i);
      if (i == 0) {
        beginning =
            ((TeamEventFeed.StreamItem.Event)
                    feed.stream(team, "alice", Optional.empty(), e -> true).blockFirst())
                .event()
                .cursor();
      }
    }

    List<TeamEventFeed.StreamItem> items =
        feed.stream(team, "alice", Optional.of(beginning), e -> true).take(9).collectList().block();

    assertThat(items).allMatch(TeamEventFeed.StreamItem.Event.class::isInstance);
    assertThat(texts(items)).containsExactly("e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9");
    int topic = Topics.EVENT_TOPICS.indexOf(Topics.TEAM_EVENTS);
    assertThat(asked)
        .singleElement()
        .satisfies(
            range -> {
              assertThat(range.topic()).isEqualTo(topic);
              assertThat(range.from()).isEqualTo(1);
              assertThat(range.to()).isEqualTo(4);
            });
    // A cursor of a replayed event resumes after it like any other.
    EventCursor third = ((TeamEventFeed.StreamItem.Event) items.get(2)).event().cursor();
    List<TeamEventFeed.StreamItem> rest =
        feed.stream(team, "alice", Optional.of(third), e -> true).take(6).collectList().block();
    assertThat(texts(rest)).containsExactly("e4", "e5", "e6", "e7", "e8", "e9");
  }

  @Test
  void aSlowSubscriberIsDisconnectedInsteadOfGrowingMemory() {
    start(100, 5);
    StepVerifier.create(feed.stream(team, "alice", Optional.empty(), e -> true), 0)
        .then(
            () -> {
              for (int i = 0; i < 20; i++) {
                publish("alice", "burst" + i);
              }
            })
        .thenRequest(100)
        // What was buffered before the overflow drains, then the stream ends with the reason.
        .recordWith(java.util.ArrayList::new)
        .thenConsumeWhile(item -> true)
        .expectRecordedMatches(delivered -> delivered.size() < 20)
        .expectError(TeamEventFeed.SlowSubscriberException.class)
        .verify(Duration.ofSeconds(5));
  }

  @Test
  void aConsumerReadingRecordsAgainAfterABrokerFailureSendsNoEventTwiceOnAnOpenStream() {
    start(5, 50);
    List<String> records = new ArrayList<>();
    StepVerifier.create(feed.stream(team, "alice", Optional.empty(), e -> true))
        .then(
            () -> {
              for (int i = 0; i < 10; i++) {
                records.add(codec.write(publish("alice", "e" + i)));
              }
            })
        .expectNextCount(10)
        .then(
            () -> {
              // The feed's consumer rejoined and reads again from its last commit (offset 2): the
              // first three fell out of the five-event window meanwhile.
              for (int i = 2; i < 10; i++) {
                feed.accept(Topics.TEAM_EVENTS, i, records.get(i));
              }
              publish("alice", "fresh");
            })
        .assertNext(i -> assertThat(texts(List.of(i))).containsExactly("fresh"))
        .thenCancel()
        .verify(Duration.ofSeconds(5));
    // Every record read again reached the open stream once more and was dropped there, counted.
    assertThat(meters.counter("agentteams.gateway.stream.repeats.dropped").count()).isEqualTo(8);
  }

  @Test
  void showsARedeliveredEventOnceAndNeverAnotherOwnersEvents() {
    EventEnvelope once = publish("alice", "once");
    feed.accept(Topics.TEAM_EVENTS, offset++, codec.write(once));
    publish("mallory", "not yours");
    publish("alice", "after");
    List<TeamEventFeed.StreamItem> items =
        feed.stream(team, "alice", Optional.empty(), e -> true).take(2).collectList().block();
    assertThat(texts(items)).containsExactly("once", "after");
  }
}
