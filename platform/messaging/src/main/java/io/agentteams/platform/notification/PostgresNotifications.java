package io.agentteams.platform.notification;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Wrapped;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.retry.Retry;

/**
 * The process's one Postgres {@code LISTEN} connection, shared by every subscriber: each asks for a
 * channel with {@link #on(String)} and gets that channel's notifications, whoever else listens.
 *
 * <p>The connection is its own, outside the pool, opened once the listener is started and someone
 * asked for a channel; a channel asked for later is added to the live connection. When the
 * connection is lost (a database restart, a network cut, {@code pg_terminate_backend}) the listener
 * opens another with back-off ({@code agentteams.notifications.*}) and listens again on every
 * channel. Postgres does not keep notifications for a session that is gone, so whatever was
 * notified in between is lost: each time listening on a channel (re)starts, its subscribers get a
 * {@linkplain Notification#catchUp() catch-up} and look for work themselves, as they do on their
 * safety-net poll. A subscriber therefore never depends on a notification arriving.
 *
 * <p>Meters: {@code agentteams.notifications.connected} (1 while listening), {@code
 * agentteams.notifications.reconnects}, {@code agentteams.notifications.received} by channel. In
 * {@code pg_stat_activity} the connection's {@code application_name} is {@value #APPLICATION_NAME}.
 */
public final class PostgresNotifications implements SmartLifecycle, AutoCloseable {

  /** The listening session's {@code application_name}, for operators and tests to find it. */
  public static final String APPLICATION_NAME = "agentteams-notifications";

  private static final Logger log = LoggerFactory.getLogger(PostgresNotifications.class);
  // Channel names go into LISTEN statements as identifiers, so only plain ones are accepted.
  private static final Pattern CHANNEL_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private final ConnectionFactory direct;
  private final NotificationProperties properties;
  private final MeterRegistry meters;
  private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicBoolean listening = new AtomicBoolean();
  private final AtomicReference<@Nullable PostgresqlConnection> live = new AtomicReference<>();
  private final AtomicInteger connected = new AtomicInteger();
  private final Counter reconnects;
  private volatile Disposable connection = Disposables.disposed();

  /**
   * @param connectionFactory the service's (pooled) connection factory; the listener unwraps it to
   *     open its connection outside the pool
   */
  public PostgresNotifications(
      ConnectionFactory connectionFactory,
      NotificationProperties properties,
      MeterRegistry meters) {
    this.direct = unwrap(connectionFactory);
    this.properties = properties;
    this.meters = meters;
    Gauge.builder("agentteams.notifications.connected", connected, AtomicInteger::get)
        .description("1 while this process's notification connection listens, 0 while it is away")
        .register(meters);
    this.reconnects =
        Counter.builder("agentteams.notifications.reconnects")
            .description("Times the notification connection was lost and opened again")
            .register(meters);
  }

  /**
   * The channel's notifications from now on, with a catch-up each time listening on it (re)starts.
   * A slow subscriber misses notifications rather than holding up the others; every subscriber
   * polls as well.
   *
   * @param channel a plain lower-case identifier
   */
  public Flux<Notification> on(String channel) {
    Channel existing = channels.get(channel);
    if (existing != null) {
      return existing.notifications();
    }
    if (!CHANNEL_NAME.matcher(channel).matches()) {
      throw new IllegalArgumentException("not a plain channel name: " + channel);
    }
    Channel created = new Channel(channel);
    Channel raced = channels.putIfAbsent(channel, created);
    if (raced != null) {
      return raced.notifications();
    }
    // Listening starts once the first subscriber is there: the catch-up that follows the LISTEN
    // goes to the subscribers the channel has then (a sink without one drops it). The sink adds a
    // subscriber only after its onSubscribe hook returns, so listening is asked for by a second
    // source merged after the sink: a LISTEN answered at once still finds the subscriber there.
    AtomicBoolean asked = new AtomicBoolean();
    Mono<Notification> listenOnce =
        Mono.fromRunnable(
            () -> {
              if (asked.compareAndSet(false, true)) {
                listenOnLiveConnection(created);
                connectIfWanted();
              }
            });
    return Flux.merge(created.notifications(), listenOnce);
  }

  /** Starts listening (once a channel is asked for); idempotent. */
  @Override
  public void start() {
    if (running.compareAndSet(false, true)) {
      connectIfWanted();
    }
  }

  /** Stops listening and closes the connection. */
  @Override
  public void stop() {
    running.set(false);
    connection.dispose();
    listening.set(false);
  }

  @Override
  public boolean isRunning() {
    return running.get();
  }

  /** Starts before the loops and streams that subscribe to it and stops after them. */
  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE - 100;
  }

  @Override
  public void close() {
    stop();
  }

  private void connectIfWanted() {
    if (running.get() && !channels.isEmpty() && listening.compareAndSet(false, true)) {
      connection =
          listen()
              .subscribe(item -> {}, error -> log.error("notification listener stopped", error));
    }
  }

  /** Holds the connection, opening another with back-off whenever it is lost. */
  private Flux<Object> listen() {
    return Flux.usingWhen(
            Mono.from(direct.create()).cast(PostgresqlConnection.class),
            this::listenOn,
            postgres -> {
              live.set(null);
              connected.set(0);
              return postgres.close();
            })
        .retryWhen(
            Retry.backoff(Long.MAX_VALUE, properties.reconnectBackoff())
                .maxBackoff(properties.maxReconnectBackoff())
                // A connection that listened starts the back-off afresh when it is lost.
                .transientErrors(true)
                .doBeforeRetry(
                    signal -> {
                      reconnects.increment();
                      log.warn(
                          "notification connection lost; reconnecting: {}",
                          signal.failure().toString());
                    }))
        .repeat(
            () -> {
              if (running.get()) {
                reconnects.increment();
                log.warn("notification connection closed; reconnecting");
              }
              return running.get();
            });
  }

  /**
   * Listens on every channel asked for so far, tells their subscribers to catch up, then passes
   * notifications on. Emits a marker once listening, then each notification.
   */
  private Flux<Object> listenOn(PostgresqlConnection postgres) {
    // Published before the channels are read: a channel added from now on is either in this list
    // or added to this connection by on(), perhaps both (LISTEN twice is harmless).
    live.set(postgres);
    List<Channel> now = List.copyOf(channels.values());
    String statements =
        "SET application_name = '"
            + APPLICATION_NAME
            + "'; "
            + now.stream().map(c -> "LISTEN " + c.name).collect(Collectors.joining("; "));
    return postgres
        .createStatement(statements)
        .execute()
        .flatMap(result -> result.getRowsUpdated())
        .then(
            Mono.fromRunnable(
                () -> {
                  connected.set(1);
                  now.forEach(Channel::catchUp);
                }))
        .thenReturn((Object) Boolean.TRUE)
        .concatWith(
            postgres
                .getNotifications()
                .doOnNext(
                    n -> {
                      Channel channel = channels.get(n.getName());
                      if (channel != null) {
                        channel.deliver(
                            Notification.of(
                                n.getName(), n.getParameter() == null ? "" : n.getParameter()));
                      }
                    }));
  }

  /** Adds a new channel to the connection that listens now, if there is one. */
  private void listenOnLiveConnection(Channel channel) {
    PostgresqlConnection postgres = live.get();
    if (postgres == null) {
      return;
    }
    postgres
        .createStatement("LISTEN " + channel.name)
        .execute()
        .flatMap(result -> result.getRowsUpdated())
        .then()
        .subscribe(
            done -> {},
            // The connection is going; the next one listens on this channel too.
            error -> log.debug("LISTEN {} failed: {}", channel.name, error.toString()),
            channel::catchUp);
  }

  private static ConnectionFactory unwrap(ConnectionFactory factory) {
    ConnectionFactory current = factory;
    while (current instanceof Wrapped<?> wrapped
        && wrapped.unwrap() instanceof ConnectionFactory inner) {
      current = inner;
    }
    return current;
  }

  /** One channel's subscribers. */
  private final class Channel {
    final String name;
    private final Sinks.Many<Notification> sink = Sinks.many().multicast().directBestEffort();
    private final Counter received;

    Channel(String name) {
      this.name = name;
      this.received =
          Counter.builder("agentteams.notifications.received")
              .description("Notifications received, by channel")
              .tag("channel", name)
              .register(meters);
    }

    Flux<Notification> notifications() {
      return sink.asFlux();
    }

    void deliver(Notification notification) {
      received.increment();
      emit(notification);
    }

    void catchUp() {
      emit(Notification.catchUp(name));
    }

    // Notifications and catch-ups come from different threads; the sink takes one at a time.
    private synchronized void emit(Notification notification) {
      sink.tryEmitNext(notification);
    }
  }
}
