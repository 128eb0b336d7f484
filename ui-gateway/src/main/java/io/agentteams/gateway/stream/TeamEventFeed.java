package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.MalformedEventException;
import io.agentteams.platform.tracing.EventTracing;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;

/**
 * This replica's view of every team's events: a bounded window per team for replay, and the fan out
 * of new events to subscribers. Fed by {@link FeedConsumer}; offsets are the broker's, so a cursor
 * one replica issued means the same on every other.
 */
@Component
public class TeamEventFeed {

  private static final Logger log = LoggerFactory.getLogger(TeamEventFeed.class);

  private final EventCodec codec;
  private final StreamProperties properties;
  private final Map<String, TeamWindow> windows;
  private final Map<TopicPartition, Long> startPositions = new ConcurrentHashMap<>();
  private final Map<String, Integer> partitionCounts = new ConcurrentHashMap<>();
  // Per partition, the offset up to which events of dropped windows are gone: a window made again
  // for a team on that partition vouches only for what comes after it.
  private final Map<TopicPartition, Long> droppedUpTo = new ConcurrentHashMap<>();
  private final AtomicLong retained = new AtomicLong();
  // One live sink per team with subscribers, so an event costs only that team's subscribers.
  private final Map<String, Sinks.Many<FeedEvent>> live = new ConcurrentHashMap<>();
  private final AtomicInteger subscribers = new AtomicInteger();
  private final Counter disconnected;
  private final Counter resets;
  private final EventTracing tracing;

  public TeamEventFeed(
      EventCodec codec, StreamProperties properties, EventTracing tracing, MeterRegistry meters) {
    this.codec = codec;
    this.properties = properties;
    this.tracing = tracing;
    this.windows =
        Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
              @Override
              protected boolean removeEldestEntry(Map.Entry<String, TeamWindow> eldest) {
                if (size() <= properties.maxTeams()) {
                  return false;
                }
                dropped(eldest.getKey(), eldest.getValue());
                return true;
              }
            });
    Gauge.builder("agentteams.gateway.stream.subscribers", subscribers, AtomicInteger::get)
        .description("Open event streams on this replica")
        .register(meters);
    Gauge.builder("agentteams.gateway.stream.teams", windows, Map::size)
        .description("Teams whose recent events this replica keeps for replay")
        .register(meters);
    Gauge.builder("agentteams.gateway.stream.window", retained, AtomicLong::get)
        .description("Size of the events this replica keeps for replay, all teams together")
        .baseUnit("bytes")
        .register(meters);
    this.disconnected =
        Counter.builder("agentteams.gateway.stream.slow.disconnects")
            .description("Streams ended because their subscriber fell too far behind")
            .register(meters);
    this.resets =
        Counter.builder("agentteams.gateway.stream.resets")
            .description(
                "Streams resumed from a cursor older than the window, answered with a reset")
            .register(meters);
  }

  /** The bytes every team's window keeps, by the windows' own accounting. */
  public long retainedBytes() {
    return retained.get();
  }

  /** Drops least recently used teams' windows while all of them keep more than the total bound. */
  private void keepWithinTotal() {
    long bound = properties.windowBytesTotal().toBytes();
    while (retained.get() > bound) {
      Map.Entry<String, TeamWindow> eldest;
      synchronized (windows) {
        var entries = windows.entrySet().iterator();
        if (!entries.hasNext()) {
          return;
        }
        eldest = entries.next();
        entries.remove();
      }
      dropped(eldest.getKey(), eldest.getValue());
    }
  }

  /** A team's window is gone: its bytes leave the total, and its events are marked as dropped. */
  private void dropped(String teamId, TeamWindow window) {
    TeamWindow.Snapshot snapshot = window.snapshot();
    retained.addAndGet(-window.bytes());
    for (int topic = 0; topic < Topics.EVENT_TOPICS.size(); topic++) {
      TopicPartition partition = partitionOf(teamId, topic);
      if (partition != null) {
        droppedUpTo.merge(partition, snapshot.cursor().offset(topic), Math::max);
      }
    }
  }

  private @Nullable TopicPartition partitionOf(String teamId, int topic) {
    String name = Topics.EVENT_TOPICS.get(topic);
    Integer partitions = partitionCounts.get(name);
    if (partitions == null) {
      return null;
    }
    byte[] key = teamId.getBytes(StandardCharsets.UTF_8);
    return new TopicPartition(name, Utils.toPositive(Utils.murmur2(key)) % partitions);
  }

  /** Where this replica starts reading a partition, and how many partitions each topic has. */
  public void assigned(TopicPartition partition, long position, int partitionsOfTopic) {
    startPositions.putIfAbsent(partition, position);
    partitionCounts.putIfAbsent(partition.topic(), partitionsOfTopic);
  }

  /**
   * Takes one record of an event topic. Malformed records are skipped (consumers dead-letter them).
   */
  public void accept(String topicName, long offset, @Nullable String json) {
    accept(topicName, offset, json, null);
  }

  /**
   * Takes one record of an event topic, handing it to the team's streams in a span that continues
   * the trace of the publish whose context the record carries.
   *
   * @param traceparent the record's {@code traceparent} header, if any
   */
  public void accept(
      String topicName, long offset, @Nullable String json, @Nullable String traceparent) {
    int topic = Topics.EVENT_TOPICS.indexOf(topicName);
    if (topic < 0 || json == null) {
      return;
    }
    EventEnvelope envelope;
    try {
      envelope = codec.read(json);
    } catch (MalformedEventException e) {
      log.warn("skipping a malformed event at {}@{}", topicName, offset);
      return;
    }
    tracing.delivering(
        traceparent, topicName, envelope.type(), () -> fanOut(envelope, topic, offset, json));
  }

  /** Keeps the event in its team's window and hands it to the team's live streams. */
  private int fanOut(EventEnvelope envelope, int topic, long offset, String json) {
    int streams = hand(envelope, topic, offset, json);
    keepWithinTotal();
    return streams;
  }

  private int hand(EventEnvelope envelope, int topic, long offset, String json) {
    return window(envelope.teamId())
        .append(
            envelope.eventId().toString(),
            envelope.teamId(),
            envelope.ownerId(),
            topic,
            offset,
            envelope.type(),
            json,
            EventAudience.of(envelope.data()))
        .map(
            event -> {
              Sinks.Many<FeedEvent> sink = live.get(event.teamId());
              if (sink == null) {
                return 0;
              }
              int streams = sink.currentSubscriberCount();
              sink.tryEmitNext(event);
              return streams;
            })
        .orElse(0);
  }

  private TeamWindow window(String teamId) {
    TeamWindow known = windows.get(teamId);
    if (known != null) {
      return known;
    }
    long[] completeAfter = completeAfter(teamId);
    if (completeAfter == null) {
      // Not reading every topic yet: an empty window that vouches for nothing, not kept.
      long[] nothing = new long[Topics.EVENT_TOPICS.size()];
      Arrays.fill(nothing, Long.MAX_VALUE);
      return new TeamWindow(
          properties.windowPerTeam(),
          properties.windowBytesPerTeam().toBytes(),
          nothing,
          change -> {});
    }
    return windows.computeIfAbsent(
        teamId,
        id ->
            new TeamWindow(
                properties.windowPerTeam(),
                properties.windowBytesPerTeam().toBytes(),
                completeAfter,
                retained::addAndGet));
  }

  /**
   * Per topic, the offset on the team's partition after which this replica has read everything;
   * null while some topic is not assigned yet.
   */
  private long @Nullable [] completeAfter(String teamId) {
    long[] after = new long[Topics.EVENT_TOPICS.size()];
    for (int topic = 0; topic < after.length; topic++) {
      TopicPartition partition = partitionOf(teamId, topic);
      Long start = partition == null ? null : startPositions.get(partition);
      if (start == null) {
        return null;
      }
      after[topic] = Math.max(start - 1, droppedUpTo.getOrDefault(partition, -1L));
    }
    return after;
  }

  /**
   * A team's events for one subscriber, owned by {@code ownerId} and passing {@code filter}: first
   * those it missed (after {@code resume}, or the retained window for a new subscriber), then live
   * ones. A resume point older than the window yields a {@link StreamItem.Reset} first. A
   * subscriber that falls {@code subscriber-buffer} events behind is disconnected.
   */
  public Flux<StreamItem> stream(
      String teamId, String ownerId, Optional<EventCursor> resume, Predicate<FeedEvent> filter) {
    return Flux.defer(
        () -> {
          Sinks.Many<FeedEvent> buffer =
              Sinks.many()
                  .unicast()
                  .onBackpressureBuffer(Queues.<FeedEvent>get(properties.subscriberBuffer()).get());
          var liveSubscription =
              live(teamId)
                  .subscribe(
                      e -> {
                        if (buffer.tryEmitNext(e).isFailure()) {
                          disconnected.increment();
                          buffer.tryEmitError(
                              new SlowSubscriberException(properties.subscriberBuffer()));
                        }
                      });
          TeamWindow.Snapshot snapshot = window(teamId).snapshot();
          boolean reset = resume.isPresent() && !snapshot.covers(resume.get());
          if (reset) {
            resets.increment();
          }
          EventCursor from = resume.filter(r -> !reset).orElse(null);
          Flux<FeedEvent> missed =
              Flux.fromIterable(snapshot.events())
                  .filter(e -> from == null || from.precedes(e.topic(), e.offset()));
          Flux<FeedEvent> after =
              buffer.asFlux().filter(e -> snapshot.cursor().precedes(e.topic(), e.offset()));
          Flux<StreamItem> events =
              Flux.concat(missed, after)
                  .filter(e -> e.ownerId().equals(ownerId) && filter.test(e))
                  .map(StreamItem.Event::new);
          Flux<StreamItem> head =
              reset ? Flux.just(new StreamItem.Reset(snapshot.cursor())) : Flux.empty();
          return Flux.concat(head, events)
              .doOnSubscribe(s -> subscribers.incrementAndGet())
              .doFinally(
                  signal -> {
                    subscribers.decrementAndGet();
                    liveSubscription.dispose();
                  });
        });
  }

  /**
   * Where a team's stream stands now: a cursor after every event this replica has read for it. A
   * page that reads the team's state after taking this cursor and then streams from it misses
   * nothing (events after it may already be reflected in what it read).
   */
  public EventCursor position(String teamId) {
    return window(teamId).snapshot().cursor();
  }

  /** Every event of a team after this call, with no replay: for "wait for the next change". */
  public Flux<FeedEvent> next(String teamId, String ownerId) {
    return live(teamId).filter(e -> e.ownerId().equals(ownerId));
  }

  /** The team's live events; the team's sink goes away with its last subscriber. */
  private Flux<FeedEvent> live(String teamId) {
    return Flux.defer(
        () -> {
          Sinks.Many<FeedEvent> sink;
          synchronized (live) {
            sink = live.computeIfAbsent(teamId, id -> Sinks.many().multicast().directBestEffort());
          }
          return sink.asFlux()
              .doFinally(
                  signal -> {
                    synchronized (live) {
                      if (sink.currentSubscriberCount() == 0) {
                        live.remove(teamId, sink);
                      }
                    }
                  });
        });
  }

  /** What a stream carries. */
  public sealed interface StreamItem {

    /** An event of the team. */
    record Event(FeedEvent event) implements StreamItem {}

    /** Events were missed beyond the retained window: reload state, then continue from here. */
    record Reset(EventCursor cursor) implements StreamItem {}
  }

  /** A subscriber too slow to keep up; its stream ends rather than growing memory. */
  public static final class SlowSubscriberException extends RuntimeException {
    SlowSubscriberException(int buffer) {
      super("subscriber fell more than " + buffer + " events behind");
    }
  }
}
