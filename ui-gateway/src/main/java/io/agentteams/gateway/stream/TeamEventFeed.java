package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.MalformedEventException;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;

/**
 * This replica's own view of every team's events: it reads all event topics with a consumer group
 * of its own (from the end, committing nothing), keeps a bounded window per team and fans new
 * events out to subscribers. Any replica can therefore serve any stream.
 */
@Component
public class TeamEventFeed implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(TeamEventFeed.class);

  private final EventCodec codec;
  private final StreamProperties properties;
  private final ConcurrentMessageListenerContainer<String, String> container;
  private final Map<String, TeamWindow> windows;
  private final Map<TopicPartition, Long> startPositions = new ConcurrentHashMap<>();
  private final Map<String, Integer> partitionCounts = new ConcurrentHashMap<>();
  private final Sinks.Many<FeedEvent> live = Sinks.many().multicast().directBestEffort();
  private final AtomicInteger subscribers = new AtomicInteger();

  public TeamEventFeed(
      KafkaProperties kafka, EventCodec codec, StreamProperties properties, MeterRegistry meters) {
    this.codec = codec;
    this.properties = properties;
    this.windows =
        java.util.Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
              @Override
              protected boolean removeEldestEntry(Map.Entry<String, TeamWindow> eldest) {
                return size() > properties.maxTeams();
              }
            });
    Map<String, Object> config = new LinkedHashMap<>(kafka.buildConsumerProperties());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "ui-gateway.feed." + UUID.randomUUID());
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    ContainerProperties containerProperties =
        new ContainerProperties(Topics.EVENT_TOPICS.toArray(String[]::new));
    containerProperties.setAckMode(ContainerProperties.AckMode.MANUAL);
    containerProperties.setMessageListener((MessageListener<String, String>) this::accept);
    containerProperties.setConsumerRebalanceListener(
        new ConsumerAwareRebalanceListener() {
          @Override
          public void onPartitionsAssigned(
              Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
            for (TopicPartition partition : partitions) {
              startPositions.putIfAbsent(partition, consumer.position(partition));
              partitionCounts.computeIfAbsent(
                  partition.topic(), topic -> consumer.partitionsFor(topic).size());
            }
          }
        });
    this.container =
        new ConcurrentMessageListenerContainer<>(
            new DefaultKafkaConsumerFactory<>(config), containerProperties);
    container.setBeanName("ui-gateway-feed");
    Gauge.builder("agentteams.gateway.stream.subscribers", subscribers, AtomicInteger::get)
        .description("Open team event streams on this replica")
        .register(meters);
    Gauge.builder("agentteams.gateway.stream.teams", windows, Map::size)
        .description("Teams whose recent events this replica keeps for replay")
        .register(meters);
  }

  private void accept(ConsumerRecord<String, String> record) {
    int topic = Topics.EVENT_TOPICS.indexOf(record.topic());
    EventEnvelope envelope;
    try {
      envelope = codec.read(record.value());
    } catch (MalformedEventException e) {
      log.warn(
          "skipping malformed event at {}-{}@{}",
          record.topic(),
          record.partition(),
          record.offset());
      return;
    }
    window(envelope.teamId())
        .append(
            envelope.eventId().toString(),
            envelope.teamId(),
            envelope.ownerId(),
            topic,
            record.offset(),
            envelope.type(),
            record.value())
        .ifPresent(live::tryEmitNext);
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
      java.util.Arrays.fill(nothing, Long.MAX_VALUE);
      return new TeamWindow(properties.windowPerTeam(), nothing);
    }
    return windows.computeIfAbsent(
        teamId, id -> new TeamWindow(properties.windowPerTeam(), completeAfter));
  }

  /**
   * Per topic, the offset on the team's partition after which this replica has read everything;
   * null while some topic is not assigned yet.
   */
  private long @Nullable [] completeAfter(String teamId) {
    long[] after = new long[Topics.EVENT_TOPICS.size()];
    byte[] key = teamId.getBytes(StandardCharsets.UTF_8);
    for (int topic = 0; topic < after.length; topic++) {
      String name = Topics.EVENT_TOPICS.get(topic);
      Integer partitions = partitionCounts.get(name);
      Long start =
          partitions == null
              ? null
              : startPositions.get(
                  new TopicPartition(name, Utils.toPositive(Utils.murmur2(key)) % partitions));
      if (start == null) {
        return null;
      }
      after[topic] = start - 1;
    }
    return after;
  }

  /**
   * A team's events for one subscriber: first those it missed (after {@code resume}, or the
   * retained window for a new subscriber), then live ones. A resume point older than the window
   * yields a {@link StreamItem.Reset} first. A subscriber that falls {@code subscriber-buffer}
   * events behind is disconnected.
   */
  public Flux<StreamItem> stream(
      String teamId, String ownerId, java.util.Optional<EventCursor> resume) {
    return Flux.defer(
        () -> {
          Sinks.Many<FeedEvent> buffer =
              Sinks.many()
                  .unicast()
                  .onBackpressureBuffer(Queues.<FeedEvent>get(properties.subscriberBuffer()).get());
          var liveSubscription =
              live.asFlux()
                  .filter(e -> e.teamId().equals(teamId))
                  .subscribe(
                      e -> {
                        if (buffer.tryEmitNext(e).isFailure()) {
                          buffer.tryEmitError(
                              new SlowSubscriberException(properties.subscriberBuffer()));
                        }
                      });
          TeamWindow.Snapshot snapshot = window(teamId).snapshot();
          boolean reset = resume.isPresent() && !snapshot.covers(resume.get());
          EventCursor from = resume.filter(r -> !reset).orElse(null);
          Flux<StreamItem> missed =
              Flux.fromIterable(snapshot.events())
                  .filter(e -> from == null || from.precedes(e.topic(), e.offset()))
                  .map(StreamItem.Event::new);
          Flux<StreamItem> after =
              buffer
                  .asFlux()
                  .filter(e -> snapshot.cursor().precedes(e.topic(), e.offset()))
                  .map(StreamItem.Event::new);
          Flux<StreamItem> head =
              reset ? Flux.just(new StreamItem.Reset(snapshot.cursor())) : Flux.empty();
          return Flux.concat(head, missed, after)
              .filter(
                  item ->
                      !(item instanceof StreamItem.Event e) || e.event().ownerId().equals(ownerId))
              .doOnSubscribe(s -> subscribers.incrementAndGet())
              .doFinally(
                  signal -> {
                    subscribers.decrementAndGet();
                    liveSubscription.dispose();
                  });
        });
  }

  @Override
  public void start() {
    container.start();
  }

  @Override
  public void stop() {
    container.stop();
  }

  @Override
  public boolean isRunning() {
    return container.isRunning();
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
