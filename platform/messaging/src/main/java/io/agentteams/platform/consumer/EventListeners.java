package io.agentteams.platform.consumer;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.MalformedEventException;
import io.agentteams.platform.event.TraceContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.core.MicrometerConsumerListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;

/**
 * One Kafka listener container per {@link EventSubscription}. Each record is read as an envelope
 * and applied through the {@link IdempotentConsumer}; a failing event is retried with back-off
 * while the partition waits (order is kept), then sent to {@code <topic>.DLT} with the reason in
 * its headers, and the consumer moves on. Bytes that are not an envelope go there at once.
 */
public final class EventListeners implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(EventListeners.class);

  private final Map<String, ConcurrentMessageListenerContainer<String, String>> containers =
      new LinkedHashMap<>();
  private final Map<String, Membership> memberships = new LinkedHashMap<>();
  private volatile boolean running;

  public EventListeners(
      String applicationName,
      Map<String, Object> consumerProperties,
      List<EventSubscription> subscriptions,
      IdempotentConsumer consumer,
      EventCodec codec,
      KafkaOperations<Object, Object> deadLetters,
      ConsumerProperties properties,
      MeterRegistry meters) {
    Map<String, Object> config = new LinkedHashMap<>(consumerProperties);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, properties.maxBatch());
    DefaultKafkaConsumerFactory<String, String> factory =
        properties.leaveGroupOnClose()
            ? new GroupLeavingConsumerFactory<>(config, properties.closeTimeout())
            : new DefaultKafkaConsumerFactory<>(config);
    // Client metrics, among them each consumer's lag
    // (kafka_consumer_fetch_manager_records_lag_max).
    factory.addListener(new MicrometerConsumerListener<>(meters));
    for (EventSubscription subscription : subscriptions) {
      if (containers.containsKey(subscription.name())) {
        throw new IllegalStateException("two subscriptions named " + subscription.name());
      }
      String group = applicationName + "." + subscription.name();
      Counter applied = counter(meters, subscription, "applied");
      Counter duplicates = counter(meters, subscription, "duplicate");
      Counter deadLettered = counter(meters, subscription, "dead-lettered");
      Counter skipped = counter(meters, subscription, "skipped");
      ContainerProperties container =
          new ContainerProperties(subscription.topics().toArray(String[]::new));
      container.setGroupId(group);
      container.setClientId(group);
      container.setAckMode(ContainerProperties.AckMode.TIME);
      container.setAckTime(properties.commitInterval().toMillis());
      if (properties.instanceId() != null) {
        // spring-kafka appends "-<n>" per consumer thread when there are several.
        container
            .getKafkaConsumerProperties()
            .setProperty(
                ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
                properties.instanceId() + "." + subscription.name());
      }
      Membership membership = new Membership(subscription.concurrency());
      container.setConsumerRebalanceListener(membership);
      memberships.put(subscription.name(), membership);
      container.setMessageListener(
          (BatchMessageListener<String, String>)
              records -> {
                Wanted wanted = Wanted.of(records, subscription, codec);
                int fresh =
                    wanted.records().isEmpty()
                        ? 0
                        : applyBatch(
                            wanted, group, subscription.handler(), consumer, codec, properties);
                applied.increment(fresh);
                duplicates.increment(wanted.records().size() - fresh);
                skipped.increment(records.size() - wanted.records().size());
              });
      ConcurrentMessageListenerContainer<String, String> listener =
          new ConcurrentMessageListenerContainer<>(factory, container);
      listener.setConcurrency(subscription.concurrency());
      listener.setBeanName(group);
      listener.setCommonErrorHandler(
          errorHandler(deadLetters, properties, subscription.name(), deadLettered));
      containers.put(subscription.name(), listener);
    }
  }

  /**
   * Applies a poll's records in one transaction. When that fails, applies them one by one to find
   * the record at fault: those before it commit, and the error handler retries from it (and
   * dead-letters it when retries run out).
   *
   * @return how many records were new and applied
   */
  private static int applyBatch(
      Wanted wanted,
      String group,
      EventHandler handler,
      IdempotentConsumer consumer,
      EventCodec codec,
      ConsumerProperties properties) {
    List<ConsumerRecord<String, String>> records = wanted.records();
    List<EventEnvelope> events = new ArrayList<>(records.size());
    for (ConsumerRecord<String, String> record : records) {
      try {
        events.add(read(record, codec));
      } catch (MalformedEventException malformed) {
        break;
      }
    }
    if (events.size() == records.size()) {
      try {
        Integer fresh =
            consumer.processAll(group, events, handler).block(properties.handlerTimeout());
        return fresh == null ? 0 : fresh;
      } catch (RuntimeException batchFailed) {
        log.debug(
            "batch of {} failed, applying one by one: {}", records.size(), batchFailed.toString());
      }
    }
    int fresh = 0;
    for (int i = 0; i < records.size(); i++) {
      try {
        EventEnvelope event = i < events.size() ? events.get(i) : read(records.get(i), codec);
        if (Boolean.TRUE.equals(
            consumer.process(group, event, handler).block(properties.handlerTimeout()))) {
          fresh++;
        }
      } catch (RuntimeException failure) {
        throw new BatchListenerFailedException(
            failure.getClass().getSimpleName() + ": " + failure.getMessage(),
            failure,
            wanted.positions().get(i));
      }
    }
    return fresh;
  }

  /**
   * Reads a record's event. The record's own trace headers, written by the relay's publish span,
   * take the place of the context stored with the event (the change's span, the publish's parent),
   * so the handler's span is a child of the publish.
   */
  private static EventEnvelope read(ConsumerRecord<String, String> record, EventCodec codec) {
    EventEnvelope event = codec.read(record.value());
    Header traceparent = record.headers().lastHeader("traceparent");
    if (traceparent == null) {
      return event;
    }
    String value = new String(traceparent.value(), StandardCharsets.UTF_8);
    if (!TraceContext.isValid(value)) {
      return event;
    }
    Header tracestate = record.headers().lastHeader("tracestate");
    return event.withTrace(
        new TraceContext(
            value,
            tracestate == null ? null : new String(tracestate.value(), StandardCharsets.UTF_8)));
  }

  /**
   * The records of a poll whose events the subscription acts on, with their positions in the poll
   * (for the error handler). The type comes from the relay's {@code event_type} header; a record
   * without one is read to find it, and one that cannot be read is kept, so that it fails and is
   * dead-lettered rather than skipped.
   */
  private record Wanted(List<ConsumerRecord<String, String>> records, List<Integer> positions) {

    static Wanted of(
        List<ConsumerRecord<String, String>> poll,
        EventSubscription subscription,
        EventCodec codec) {
      if (subscription.eventTypes().isEmpty()) {
        return new Wanted(poll, IntStream.range(0, poll.size()).boxed().toList());
      }
      List<ConsumerRecord<String, String>> records = new ArrayList<>(poll.size());
      List<Integer> positions = new ArrayList<>(poll.size());
      for (int i = 0; i < poll.size(); i++) {
        if (wanted(poll.get(i), subscription, codec)) {
          records.add(poll.get(i));
          positions.add(i);
        }
      }
      return new Wanted(records, positions);
    }

    private static boolean wanted(
        ConsumerRecord<String, String> record, EventSubscription subscription, EventCodec codec) {
      Header type = record.headers().lastHeader("event_type");
      if (type != null) {
        return subscription.wants(new String(type.value(), StandardCharsets.UTF_8));
      }
      try {
        return subscription.wants(codec.read(record.value()).type());
      } catch (MalformedEventException malformed) {
        return true;
      }
    }
  }

  private static Counter counter(MeterRegistry meters, EventSubscription s, String outcome) {
    return Counter.builder("agentteams.consumer.events")
        .description("Events seen by a subscription, by outcome")
        .tag("subscription", s.name())
        .tag("outcome", outcome)
        .register(meters);
  }

  private static DefaultErrorHandler errorHandler(
      KafkaOperations<Object, Object> deadLetters,
      ConsumerProperties properties,
      String subscription,
      Counter deadLettered) {
    DeadLetterPublishingRecoverer recoverer =
        new DeadLetterPublishingRecoverer(
            deadLetters,
            (ConsumerRecord<?, ?> record, Exception error) -> {
              deadLettered.increment();
              log.error(
                  "subscription {} gives up on {}-{}@{}: {}",
                  subscription,
                  record.topic(),
                  record.partition(),
                  record.offset(),
                  rootMessage(error));
              return new TopicPartition(Topics.deadLetter(record.topic()), -1);
            });
    ExponentialBackOffWithMaxRetries backOff =
        new ExponentialBackOffWithMaxRetries(properties.retries());
    backOff.setInitialInterval(properties.initialBackoff().toMillis());
    backOff.setMultiplier(2.0);
    backOff.setMaxInterval(properties.maxBackoff().toMillis());
    DefaultErrorHandler handler = new DefaultErrorHandler(recoverer, backOff);
    handler.addNotRetryableExceptions(MalformedEventException.class);
    return handler;
  }

  private static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + ": " + root.getMessage();
  }

  /** The container of a subscription, e.g. to stop and restart it in a test. */
  public ConcurrentMessageListenerContainer<String, String> container(String subscription) {
    var container = containers.get(subscription);
    if (container == null) {
      throw new IllegalArgumentException("no subscription named " + subscription);
    }
    return container;
  }

  /**
   * Whether every subscription's consumers run and have each joined their group (received an
   * assignment, possibly empty, since they started). Until then, events wait however healthy the
   * broker is: after a crash, a consumer that rejoins a group whose dead member still holds its
   * partitions waits for that member's session to expire.
   *
   * @return the subscriptions still waiting, empty when all have joined
   */
  public List<String> notJoined() {
    List<String> waiting = new ArrayList<>();
    containers.forEach(
        (name, container) -> {
          if (!container.isRunning() || !memberships.get(name).joined()) {
            waiting.add(name);
          }
        });
    return waiting;
  }

  @Override
  public void start() {
    memberships.values().forEach(Membership::reset);
    containers.values().forEach(ConcurrentMessageListenerContainer::start);
    running = true;
  }

  @Override
  public void stop() {
    CountDownLatch stopped = new CountDownLatch(1);
    stop(stopped::countDown);
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops every container at once and calls back when the last has stopped. Each consumer's close
   * commits its offsets, leaves its group and waits for its fetch in flight (up to {@code
   * fetch-max-wait}): one after another, a service with several subscriptions took seconds each.
   */
  @Override
  public void stop(Runnable callback) {
    AtomicInteger left = new AtomicInteger(containers.size());
    Runnable oneStopped =
        () -> {
          if (left.decrementAndGet() == 0) {
            memberships.values().forEach(Membership::reset);
            running = false;
            callback.run();
          }
        };
    if (containers.isEmpty()) {
      running = false;
      callback.run();
      return;
    }
    containers.values().forEach(container -> container.stop(oneStopped));
  }

  /** Which of a subscription's consumers have joined their group since they started. */
  private static final class Membership implements ConsumerAwareRebalanceListener {

    private final int consumers;
    private final Set<Consumer<?, ?>> joined = ConcurrentHashMap.newKeySet();

    Membership(int consumers) {
      this.consumers = consumers;
    }

    @Override
    public void onPartitionsAssigned(
        Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
      joined.add(consumer);
    }

    boolean joined() {
      return joined.size() >= consumers;
    }

    void reset() {
      joined.clear();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    // Start after the web server and the relay, stop before them.
    return SmartLifecycle.DEFAULT_PHASE - 1024;
  }
}
