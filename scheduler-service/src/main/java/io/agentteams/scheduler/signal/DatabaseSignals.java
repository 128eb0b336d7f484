package io.agentteams.scheduler.signal;

import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Wrapped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.retry.Retry;

/**
 * Postgres notifications that wake this replica: the admission channel (work may have become
 * admissible) and the dispatch channel (a job became offerable to an agent's streams). Triggers
 * send them on commit, whichever replica made the change, which is how a worker's stream on one
 * replica learns of a job another replica admitted. Polling remains the safety net everywhere.
 */
@Component
public class DatabaseSignals implements SmartLifecycle {

  public static final String ADMISSION = "agentteams_admission";
  public static final String DISPATCH = "agentteams_dispatch";

  private static final Logger log = LoggerFactory.getLogger(DatabaseSignals.class);

  /** A notification: its channel and payload. */
  public record Signal(String channel, String payload) {}

  private final ConnectionFactory connectionFactory;
  private final Sinks.Many<Signal> signals = Sinks.many().multicast().directBestEffort();
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile Disposable listening = () -> {};

  public DatabaseSignals(ConnectionFactory connectionFactory) {
    this.connectionFactory = connectionFactory;
  }

  /** Payloads of one channel's notifications, as they arrive. */
  public Flux<String> on(String channel) {
    return signals.asFlux().filter(s -> s.channel().equals(channel)).map(Signal::payload);
  }

  /** Raises a signal in this replica only, e.g. after a local commit. */
  public void raise(String channel, String payload) {
    emit(new Signal(channel, payload));
  }

  private synchronized void emit(Signal signal) {
    signals.tryEmitNext(signal);
  }

  @Override
  public void start() {
    if (!running.compareAndSet(false, true)) {
      return;
    }
    listening = listen().subscribe(this::emit, e -> log.error("database listener stopped", e));
  }

  @Override
  public void stop() {
    running.set(false);
    listening.dispose();
  }

  @Override
  public boolean isRunning() {
    return running.get();
  }

  @Override
  public int getPhase() {
    // Before the loops and streams that subscribe to it.
    return SmartLifecycle.DEFAULT_PHASE - 100;
  }

  /** Holds one connection outside the pool that listens on both channels, reconnecting on loss. */
  private Flux<Signal> listen() {
    ConnectionFactory direct = unwrap(connectionFactory);
    return Flux.usingWhen(
            Mono.from(direct.create()),
            connection -> {
              PostgresqlConnection postgres = (PostgresqlConnection) connection;
              return postgres
                  .createStatement("LISTEN " + ADMISSION + "; LISTEN " + DISPATCH)
                  .execute()
                  .flatMap(result -> result.getRowsUpdated())
                  .thenMany(
                      postgres
                          .getNotifications()
                          .map(
                              n ->
                                  new Signal(
                                      n.getName(),
                                      n.getParameter() == null ? "" : n.getParameter())));
            },
            Connection::close)
        .retryWhen(
            Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200))
                .maxBackoff(Duration.ofSeconds(10))
                .doBeforeRetry(
                    signal ->
                        log.warn(
                            "database listener reconnecting: {}", signal.failure().toString())))
        .repeat(running::get);
  }

  private static ConnectionFactory unwrap(ConnectionFactory factory) {
    ConnectionFactory current = factory;
    while (current instanceof Wrapped<?> wrapped
        && wrapped.unwrap() instanceof ConnectionFactory inner) {
      current = inner;
    }
    return current;
  }
}
