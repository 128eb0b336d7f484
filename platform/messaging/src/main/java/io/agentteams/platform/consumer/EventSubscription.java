package io.agentteams.platform.consumer;

import java.util.List;
import java.util.Set;

/**
 * A named consumer of one or more topics. Each subscription is its own Kafka consumer group ({@code
 * <application>.<name>}) and its own deduplication scope.
 *
 * @param name unique within the service, e.g. {@code roster}
 * @param topics the topics it reads
 * @param concurrency listener threads (at most the topics' partition count is useful)
 * @param handler applies each event
 * @param eventTypes the event types the handler acts on; the others are skipped without a
 *     transaction or a deduplication mark (they have no effect to protect). Empty: every type.
 */
public record EventSubscription(
    String name,
    List<String> topics,
    int concurrency,
    EventHandler handler,
    Set<String> eventTypes) {

  public EventSubscription {
    if (!name.matches("[a-z][a-z0-9-]{0,62}")) {
      throw new IllegalArgumentException("subscription name must be lowercase kebab-case: " + name);
    }
    topics = List.copyOf(topics);
    if (topics.isEmpty()) {
      throw new IllegalArgumentException("subscription " + name + " reads no topic");
    }
    if (concurrency < 1) {
      throw new IllegalArgumentException("subscription " + name + " needs at least one thread");
    }
    eventTypes = Set.copyOf(eventTypes);
  }

  /** A subscription whose handler acts on events of every type. */
  public EventSubscription(
      String name, List<String> topics, int concurrency, EventHandler handler) {
    this(name, topics, concurrency, handler, Set.of());
  }

  /** The same subscription, acting only on events of these types. */
  public EventSubscription onlyTypes(String... types) {
    return new EventSubscription(name, topics, concurrency, handler, Set.of(types));
  }

  /** Whether the handler acts on events of this type. */
  public boolean wants(String eventType) {
    return eventTypes.isEmpty() || eventTypes.contains(eventType);
  }

  /** A subscription with one listener thread. */
  public static EventSubscription of(String name, String topic, EventHandler handler) {
    return new EventSubscription(name, List.of(topic), 1, handler);
  }
}
