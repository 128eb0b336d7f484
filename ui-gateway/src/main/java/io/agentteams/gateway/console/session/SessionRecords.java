package io.agentteams.gateway.console.session;

import io.agentteams.platform.kafka.PrivateGroupConsumerFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The console's server-side sessions, shared by every gateway replica through a compacted topic
 * that each replica reads from its start (a consumer group of its own), like the token revocations.
 * Three kinds of record: a session's state (started, last seen), a session's end (sign-out; a key
 * of its own, so a late "last seen" from another replica never undoes it), and an owner's "every
 * session started before now ends" (sign out everywhere). A session this replica has no record of
 * is refused: the store fails closed. Open streams wait on {@link #ending} and close when their
 * session ends.
 */
@Component
public class SessionRecords implements SmartLifecycle {

  /** Gauge of the sessions this replica holds records of. */
  public static final String HELD = "agentteams.gateway.console.sessions";

  /** Counter of requests refused because their session had ended, expired or was unknown. */
  public static final String REFUSED = "agentteams.gateway.console.sessions.refused";

  /** The event a console stream ends with when its session ends. */
  public static final String SIGNED_OUT = "signed-out";

  private static final Logger log = LoggerFactory.getLogger(SessionRecords.class);
  private static final String SESSION = "session:";
  private static final String END = "end:";
  private static final String OWNER = "owner:";

  private final Map<String, SessionRecord> sessions = new ConcurrentHashMap<>();
  private final Map<String, Instant> ended = new ConcurrentHashMap<>();
  private final Map<String, Instant> ownersEnded = new ConcurrentHashMap<>();
  private final Map<String, Set<Sinks.Empty<Void>>> waiting = new ConcurrentHashMap<>();
  private final JsonMapper json = JsonMapper.builder().build();
  private final SessionProperties properties;
  private final Clock clock;
  private final String topic;
  private final KafkaTemplate<String, String> producer;
  private final ConcurrentMessageListenerContainer<String, String> container;
  private final Counter refused;

  public SessionRecords(
      KafkaProperties kafka, SessionProperties properties, Clock clock, MeterRegistry meters) {
    this.properties = properties;
    this.clock = clock;
    this.topic = properties.topic();
    Map<String, Object> producing = new LinkedHashMap<>(kafka.buildProducerProperties());
    producing.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    producing.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    producing.put(ProducerConfig.ACKS_CONFIG, "all");
    this.producer = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(producing));
    Map<String, Object> consuming = new LinkedHashMap<>(kafka.buildConsumerProperties());
    consuming.put(ConsumerConfig.GROUP_ID_CONFIG, "ui-gateway.sessions." + UUID.randomUUID());
    consuming.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    consuming.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consuming.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    consuming.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    ContainerProperties listening = new ContainerProperties(topic);
    listening.setAckMode(ContainerProperties.AckMode.MANUAL);
    listening.setMessageListener(
        (MessageListener<String, String>) (ConsumerRecord<String, String> record) -> apply(record));
    container =
        new ConcurrentMessageListenerContainer<>(
            new PrivateGroupConsumerFactory<>(consuming), listening);
    container.setBeanName("ui-gateway-console-sessions");
    Gauge.builder(HELD, sessions, Map::size)
        .description("Console sessions this gateway replica holds records of")
        .register(meters);
    this.refused =
        Counter.builder(REFUSED)
            .description("Console requests refused: their session ended, expired or is unknown")
            .register(meters);
  }

  /** The key of a session id on the topic: its hash, so the topic holds no usable session id. */
  public static String key(String sessionId) {
    try {
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(
              MessageDigest.getInstance("SHA-256")
                  .digest(sessionId.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Records a signed-in session; completes when the topic has it (every replica will read it). */
  public Mono<Void> begin(ConsoleSession session) {
    if (!session.signedIn()) {
      return Mono.error(new IllegalArgumentException("an anonymous session has no record"));
    }
    Instant now = clock.instant();
    SessionRecord record =
        new SessionRecord(
            key(session.id()), session.ownerId(), now, session.expiresAt(), now, null);
    sessions.put(record.key(), record);
    return send(SESSION + record.key(), state(record));
  }

  /** Whether the session admits a request now; a request it admits counts as activity. */
  public boolean admits(ConsoleSession session) {
    if (!session.signedIn()) {
      return false;
    }
    Instant now = clock.instant();
    String key = key(session.id());
    SessionRecord record = sessions.get(key);
    if (record == null
        || ended.containsKey(key)
        || !record.ownerId().equals(session.ownerId())
        || !record.admits(now, properties.idleTimeout(), ownersEnded.get(record.ownerId()))) {
      refused.increment();
      return false;
    }
    if (!now.isBefore(record.lastSeenAt().plus(properties.touchInterval()))) {
      SessionRecord seen = record.seen(now);
      sessions.put(key, seen);
      send(SESSION + key, state(seen))
          .subscribe(
              done -> {}, error -> log.warn("console session activity not shared: {}", error));
    }
    return true;
  }

  /** Ends the session on every replica; completes when the topic has the end. */
  public Mono<Void> end(ConsoleSession session) {
    String key = key(session.id());
    Instant now = clock.instant();
    SessionRecord record = sessions.get(key);
    Instant expiresAt = record == null ? session.expiresAt() : record.expiresAt();
    markEnded(key, now);
    ObjectNode end = json.createObjectNode();
    end.put("kind", "end");
    end.put("key", key);
    end.put("ended_at", now.toString());
    end.put("expires_at", expiresAt.toString());
    return send(END + key, end);
  }

  /**
   * Ends every session of the owner started until now, on every replica ("sign out everywhere").
   */
  public Mono<Void> endAll(String ownerId) {
    Instant now = clock.instant();
    markOwnerEnded(ownerId, now);
    ObjectNode all = json.createObjectNode();
    all.put("kind", "owner-ended");
    all.put("owner_id", ownerId);
    all.put("ended_at", now.toString());
    return send(OWNER + ownerId, all);
  }

  /**
   * Completes when the session ends (sign-out, sign-out everywhere, absolute expiry), at once if it
   * already has; never otherwise.
   */
  public Mono<Void> ending(ConsoleSession session) {
    String key = key(session.id());
    return Mono.defer(
        () -> {
          Sinks.Empty<Void> waiter = Sinks.empty();
          waiting.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(waiter);
          // Waiting first, then looking: an end between the two is seen either way.
          if (hasEnded(key, session)) {
            waiter.tryEmitEmpty();
          }
          Duration left = Duration.between(clock.instant(), session.expiresAt());
          return Mono.firstWithSignal(
                  waiter.asMono(), Mono.delay(left.isNegative() ? Duration.ZERO : left).then())
              .doFinally(signal -> forget(key, waiter));
        });
  }

  /**
   * The console stream, until its session ends: then a last {@code signed-out} event (so the page
   * says so instead of reconnecting in silence) and the stream closes.
   */
  public Flux<ServerSentEvent<String>> untilSignedOut(
      ConsoleSession session, Flux<ServerSentEvent<String>> stream) {
    AtomicBoolean signedOut = new AtomicBoolean();
    return stream
        .takeUntilOther(ending(session).doOnSuccess(none -> signedOut.set(true)))
        .concatWith(
            Flux.defer(
                () ->
                    signedOut.get()
                        ? Flux.just(ServerSentEvent.builder("").event(SIGNED_OUT).build())
                        : Flux.empty()));
  }

  private boolean hasEnded(String key, ConsoleSession session) {
    SessionRecord record = sessions.get(key);
    if (ended.containsKey(key)) {
      return true;
    }
    if (record == null) {
      return false;
    }
    Instant ownerEnded = ownersEnded.get(record.ownerId());
    return ownerEnded != null && !record.startedAt().isAfter(ownerEnded);
  }

  private void apply(ConsumerRecord<String, String> record) {
    try {
      if (record.value() == null) {
        return;
      }
      JsonNode value = json.readTree(record.value());
      Instant now = clock.instant();
      switch (value.path("kind").asString()) {
        case "session" -> {
          SessionRecord state =
              new SessionRecord(
                  value.path("key").asString(),
                  value.path("owner_id").asString(),
                  Instant.parse(value.path("started_at").asString()),
                  Instant.parse(value.path("expires_at").asString()),
                  Instant.parse(value.path("last_seen_at").asString()),
                  null);
          if (state.expiresAt().isAfter(now)) {
            sessions.merge(
                state.key(),
                state,
                (known, read) -> read.lastSeenAt().isAfter(known.lastSeenAt()) ? read : known);
          }
        }
        case "end" -> markEnded(value.path("key").asString(), now);
        case "owner-ended" ->
            markOwnerEnded(
                value.path("owner_id").asString(),
                Instant.parse(value.path("ended_at").asString()));
        default -> log.warn("console session record of unknown kind skipped: {}", record.key());
      }
      prune(now);
    } catch (RuntimeException e) {
      // A record this version cannot read is skipped, never a reason to stop reading the rest.
      log.warn("unreadable console session record skipped: {}", e.toString());
    }
  }

  private void markEnded(String key, Instant at) {
    ended.put(key, at);
    SessionRecord record = sessions.get(key);
    if (record != null) {
      sessions.put(key, record.ended(at));
    }
    wake(key);
  }

  private void markOwnerEnded(String ownerId, Instant at) {
    ownersEnded.merge(ownerId, at, (known, read) -> read.isAfter(known) ? read : known);
    sessions.values().stream()
        .filter(record -> record.ownerId().equals(ownerId))
        .map(SessionRecord::key)
        .toList()
        .forEach(this::wake);
  }

  private void wake(String key) {
    Set<Sinks.Empty<Void>> waiters = waiting.get(key);
    if (waiters != null) {
      waiters.forEach(Sinks.Empty::tryEmitEmpty);
    }
  }

  /** Forgets what can no longer matter: sessions past their absolute expiry. */
  private void prune(Instant now) {
    sessions.values().removeIf(record -> !record.expiresAt().isAfter(now));
    Instant oldest = now.minus(SessionTopic.RETENTION);
    ended.values().removeIf(at -> at.isBefore(oldest));
    ownersEnded.values().removeIf(at -> at.isBefore(oldest));
  }

  private void forget(String key, Sinks.Empty<Void> waiter) {
    waiting.computeIfPresent(
        key,
        (k, waiters) -> {
          waiters.remove(waiter);
          return waiters.isEmpty() ? null : waiters;
        });
  }

  private ObjectNode state(SessionRecord record) {
    ObjectNode state = json.createObjectNode();
    state.put("kind", "session");
    state.put("key", record.key());
    state.put("owner_id", record.ownerId());
    state.put("started_at", record.startedAt().toString());
    state.put("expires_at", record.expiresAt().toString());
    state.put("last_seen_at", record.lastSeenAt().toString());
    return state;
  }

  private Mono<Void> send(String key, JsonNode value) {
    return Mono.fromFuture(() -> producer.send(topic, key, json.writeValueAsString(value))).then();
  }

  /** The record of a session, if this replica holds one (for tests and diagnostics). */
  Optional<SessionRecord> record(String sessionId) {
    return Optional.ofNullable(sessions.get(key(sessionId)));
  }

  @Override
  public void start() {
    container.start();
  }

  @Override
  public void stop() {
    container.stop();
    producer.destroy();
  }

  @Override
  public boolean isRunning() {
    return container.isRunning();
  }
}
