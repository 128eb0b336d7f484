package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.MalformedEventException;
import io.agentteams.platform.tracing.EventTracing;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
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
  private final TeamWindows windows;
  private final MissedEvents readBack;
  // One live sink per team with subscribers, so an event costs only that team's subscribers.
  private final Map<String, Sinks.Many<FeedEvent>> live = new ConcurrentHashMap<>();
  private final AtomicInteger subscribers = new AtomicInteger();
  private final Counter disconnected;
  private final Counter resets;
  private final Counter repeatsDropped;
  private final EventTracing tracing;

  public TeamEventFeed(
      EventCodec codec,
      StreamProperties properties,
      EventTracing tracing,
      EventReplay replay,
      MeterRegistry meters) {
    this.codec = codec;
    this.properties = properties;
    this.tracing = tracing;
    this.windows = new TeamWindows(properties);
    this.readBack = new MissedEvents(codec, replay, windows);
    Gauge.builder("agentteams.gateway.stream.subscribers", subscribers, AtomicInteger::get)
        .description("Open event streams on this replica")
        .register(meters);
    Gauge.builder("agentteams.gateway.stream.teams", windows, TeamWindows::teams)
        .description("Teams whose recent events this replica keeps for replay")
        .register(meters);
    Gauge.builder("agentteams.gateway.stream.window", windows, TeamWindows::retainedBytes)
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
    return windows.retainedBytes();
  }

  /** Where this replica starts reading a partition, and how many partitions each topic has. */
  public void assigned(TopicPartition partition, long position, int partitionsOfTopic) {
    windows.assigned(partition, position, partitionsOfTopic);
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
    windows.keepWithinTotal();
    return streams;
  }

  private int hand(EventEnvelope envelope, int topic, long offset, String json) {
    return windows
        .window(envelope.teamId())
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
          TeamWindow.Snapshot taken = windows.window(teamId).snapshot();
          // A replica that has only just started may not read the topics yet: a resume waits (a
          // while) until it does, rather than getting a reset for want of a window.
          Mono<TeamWindow.Snapshot> vouching =
              resume.isEmpty() || TeamWindows.vouches(taken)
                  ? Mono.just(taken)
                  : Mono.fromSupplier(() -> windows.window(teamId).snapshot())
                      .filter(TeamWindows::vouches)
                      .repeatWhenEmpty(again -> again.delayElements(Duration.ofMillis(50)))
                      .timeout(
                          properties.replayTimeout(),
                          Mono.fromSupplier(() -> windows.window(teamId).snapshot()));
          return vouching
              .flatMapMany(
                  snapshot ->
                      (resume.isEmpty() || snapshot.covers(resume.get())
                              ? Mono.just(Optional.<List<FeedEvent>>of(List.of()))
                              : Mono.fromCallable(
                                      () -> readBack.beforeWindow(teamId, resume.get(), snapshot))
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
   * Where a team's stream stands now: a cursor after every event this replica has read for it. A
   * page that reads the team's state after taking this cursor and then streams from it misses
   * nothing (events after it may already be reflected in what it read).
   */
  public EventCursor position(String teamId) {
    return windows.window(teamId).snapshot().cursor();
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
