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
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
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
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
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
  private final Counter repeatsDropped;
  private final EventTracing tracing;
  private final EventReplay replay;

  public TeamEventFeed(
      EventCodec codec,
      StreamProperties properties,
      EventTracing tracing,
      EventReplay replay,
      MeterRegistry meters) {
    this.codec = codec;
    this.properties = properties;
    this.tracing = tracing;
    this.replay = replay;
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
                "Streams resumed from a cursor older than the window whose missed events could not"
                    + " be read back from the broker, answered with a reset")
            .register(meters);
    this.repeatsDropped =
        Counter.builder("agentteams.gateway.stream.repeats.dropped")
            .description(
                "Events a stream did not send because it had already sent (or, resumed, had) that"
                    + " topic offset on the same connection")
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
   * ones. What it missed before the window's start is read back from the broker; only a resume
   * whose missed events the broker no longer holds (or that would pass the replay's bounds) yields
   * a {@link StreamItem.Reset} first. A subscriber that falls {@code subscriber-buffer} events
   * behind is disconnected.
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
          TeamWindow.Snapshot taken = window(teamId).snapshot();
          // A replica that has only just started may not read the topics yet: a resume waits (a
          // while) until it does, rather than getting a reset for want of a window.
          Mono<TeamWindow.Snapshot> vouching =
              resume.isEmpty() || vouches(taken)
                  ? Mono.just(taken)
                  : Mono.fromSupplier(() -> window(teamId).snapshot())
                      .filter(TeamEventFeed::vouches)
                      .repeatWhenEmpty(again -> again.delayElements(Duration.ofMillis(50)))
                      .timeout(
                          properties.replayTimeout(),
                          Mono.fromSupplier(() -> window(teamId).snapshot()));
          return vouching
              .flatMapMany(
                  snapshot ->
                      (resume.isEmpty() || snapshot.covers(resume.get())
                              ? Mono.just(Optional.<List<FeedEvent>>of(List.of()))
                              : Mono.fromCallable(
                                      () -> beforeWindow(teamId, resume.get(), snapshot))
                                  .subscribeOn(Schedulers.boundedElastic()))
                          .flatMapMany(
                              replayed ->
                                  events(snapshot, resume, replayed, buffer, ownerId, filter)))
              .doOnSubscribe(s -> subscribers.incrementAndGet())
              .doFinally(
                  signal -> {
                    subscribers.decrementAndGet();
                    liveSubscription.dispose();
                  });
        });
  }

  /** Whether the snapshot is of a window that vouches for what it holds (its topics are read). */
  private static boolean vouches(TeamWindow.Snapshot snapshot) {
    for (long after : snapshot.completeAfter()) {
      if (after == Long.MAX_VALUE) {
        return false;
      }
    }
    return true;
  }

  /**
   * One subscriber's stream: a reset when what it missed could not be had, what it missed (read
   * back, then from the window), then live events past the window.
   */
  private Flux<StreamItem> events(
      TeamWindow.Snapshot snapshot,
      Optional<EventCursor> resume,
      Optional<List<FeedEvent>> replayed,
      Sinks.Many<FeedEvent> buffer,
      String ownerId,
      Predicate<FeedEvent> filter) {
    boolean reset = replayed.isEmpty();
    if (reset) {
      resets.increment();
    }
    EventCursor from = resume.filter(r -> !reset).orElse(null);
    List<FeedEvent> older = replayed.orElse(List.of());
    Set<String> replayedIds = new HashSet<>();
    older.forEach(e -> replayedIds.add(e.eventId()));
    Flux<FeedEvent> missed =
        Flux.concat(
            Flux.fromIterable(older),
            Flux.fromIterable(snapshot.events())
                .filter(
                    e ->
                        (from == null || from.precedes(e.topic(), e.offset()))
                            && !replayedIds.contains(e.eventId())));
    Flux<FeedEvent> after =
        buffer.asFlux().filter(e -> snapshot.cursor().precedes(e.topic(), e.offset()));
    Flux<StreamItem> events =
        Flux.concat(missed, after)
            .filter(new SentOnce(from == null ? EventCursor.start() : from, repeatsDropped))
            .filter(e -> e.ownerId().equals(ownerId) && filter.test(e))
            .map(StreamItem.Event::new);
    Flux<StreamItem> head =
        reset ? Flux.just(new StreamItem.Reset(snapshot.cursor())) : Flux.empty();
    return Flux.concat(head, events);
  }

  /**
   * The team's events after {@code resume} and before the window's start, read back from the broker
   * in time order (each topic's in offset order), each with the cursor just after it; empty when
   * they cannot all be had.
   */
  private Optional<List<FeedEvent>> beforeWindow(
      String teamId, EventCursor resume, TeamWindow.Snapshot snapshot) {
    List<EventReplay.Range> ranges = new ArrayList<>();
    for (int topic = 0; topic < Topics.EVENT_TOPICS.size(); topic++) {
      long completeAfter = snapshot.completeAfter()[topic];
      TopicPartition partition = partitionOf(teamId, topic);
      if (completeAfter == Long.MAX_VALUE || partition == null) {
        return Optional.empty();
      }
      if (resume.offset(topic) < completeAfter) {
        ranges.add(
            new EventReplay.Range(topic, partition, resume.offset(topic) + 1, completeAfter));
      }
    }
    return replay
        .missed(teamId, ranges)
        .map(TeamEventFeed::inTimeOrder)
        .map(records -> feedEvents(teamId, resume, records));
  }

  /** Merges the topics' records by timestamp, keeping each topic's in offset order. */
  private static List<EventReplay.Missed> inTimeOrder(List<EventReplay.Missed> records) {
    Map<Integer, ArrayDeque<EventReplay.Missed>> byTopic = new TreeMap<>();
    records.stream()
        .sorted(
            Comparator.comparingInt(EventReplay.Missed::topic)
                .thenComparingLong(EventReplay.Missed::offset))
        .forEach(r -> byTopic.computeIfAbsent(r.topic(), t -> new ArrayDeque<>()).add(r));
    List<EventReplay.Missed> merged = new ArrayList<>(records.size());
    while (true) {
      ArrayDeque<EventReplay.Missed> next = null;
      for (ArrayDeque<EventReplay.Missed> queue : byTopic.values()) {
        if (!queue.isEmpty()
            && (next == null || queue.peekFirst().timestamp() < next.peekFirst().timestamp())) {
          next = queue;
        }
      }
      if (next == null) {
        return merged;
      }
      merged.add(next.removeFirst());
    }
  }

  private List<FeedEvent> feedEvents(
      String teamId, EventCursor resume, List<EventReplay.Missed> records) {
    List<FeedEvent> events = new ArrayList<>(records.size());
    Set<String> seen = new HashSet<>();
    EventCursor cursor = resume;
    for (EventReplay.Missed record : records) {
      cursor = cursor.after(record.topic(), record.offset());
      EventEnvelope envelope;
      try {
        envelope = codec.read(record.json());
      } catch (MalformedEventException e) {
        continue;
      }
      if (!envelope.teamId().equals(teamId) || !seen.add(envelope.eventId().toString())) {
        continue;
      }
      events.add(
          new FeedEvent(
              envelope.eventId().toString(),
              envelope.teamId(),
              envelope.ownerId(),
              record.topic(),
              record.offset(),
              envelope.type(),
              record.json(),
              EventAudience.of(envelope.data()),
              cursor));
    }
    return events;
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

  /**
   * One connection's memory of how far it has gone on each topic: an event at or before that offset
   * was sent already (or, resumed, was had before), so it is not sent again. A feed consumer that
   * rejoins after a broker failure reads records again from its last commit; those that fell out of
   * the window meanwhile would otherwise reach open streams twice, carrying the latest cursor.
   */
  private static final class SentOnce implements Predicate<FeedEvent> {

    private final long[] upTo;
    private final Counter dropped;

    SentOnce(EventCursor from, Counter dropped) {
      this.dropped = dropped;
      upTo = new long[Topics.EVENT_TOPICS.size()];
      for (int topic = 0; topic < upTo.length; topic++) {
        upTo[topic] = from.offset(topic);
      }
    }

    @Override
    public boolean test(FeedEvent event) {
      if (event.offset() <= upTo[event.topic()]) {
        dropped.increment();
        return false;
      }
      upTo[event.topic()] = event.offset();
      return true;
    }
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
