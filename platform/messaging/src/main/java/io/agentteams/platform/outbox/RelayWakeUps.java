package io.agentteams.platform.outbox;

import io.agentteams.platform.notification.PostgresNotifications;
import java.time.Duration;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * When the relay looks for rows: when asked to ({@link #now()}), when a writer's commit notifies it
 * (or listening on the channel (re)starts, which may have missed some), again shortly after
 * publishing while it says it is busy ({@link #soon()}), and on the safety-net poll.
 */
final class RelayWakeUps implements AutoCloseable {

  private final PostgresNotifications notifications;
  private final OutboxProperties properties;
  private final Sinks.Many<Boolean> asked = Sinks.many().unicast().onBackpressureBuffer();
  private final Disposable.Swap nextLook = Disposables.swap();
  private volatile boolean open = true;

  RelayWakeUps(PostgresNotifications notifications, OutboxProperties properties) {
    this.notifications = notifications;
    this.properties = properties;
  }

  /**
   * Every reason to look, starting with one at once. Reasons that arrive while the relay is busy
   * collapse into one look after it.
   */
  Flux<Boolean> reasons() {
    return Flux.merge(
            asked.asFlux(),
            notifications.on(OutboxRelay.CHANNEL).map(notification -> Boolean.TRUE),
            Flux.interval(Duration.ZERO, properties.pollInterval()).map(tick -> Boolean.TRUE))
        .onBackpressureLatest();
  }

  /**
   * Asks for a look now. Two threads asking at once may lose one request, never both; a request
   * stands for "look once more", so one is enough.
   */
  void now() {
    asked.tryEmitNext(Boolean.TRUE);
  }

  /** Asks for a look after {@code busy-poll-interval}: a busy relay gets no notifications. */
  void soon() {
    if (open) {
      nextLook.update(Mono.delay(properties.busyPollInterval()).subscribe(tick -> now()));
    }
  }

  @Override
  public void close() {
    open = false;
    nextLook.dispose();
  }
}
