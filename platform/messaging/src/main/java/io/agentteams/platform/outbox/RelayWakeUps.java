package io.agentteams.platform.outbox;

import io.agentteams.platform.notification.PostgresNotifications;
import java.time.Duration;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * When the relay looks for rows: when asked to ({@link #now()}), when this process commits outbox
 * rows ({@link OutboxCommits}), when another writer's commit notifies it (or listening on the
 * channel (re)starts, which may have missed some), again shortly after publishing ({@link
 * #soon()}), at a moment it asks for ({@link #after}), and on the safety-net poll.
 */
final class RelayWakeUps implements AutoCloseable {

  private final PostgresNotifications notifications;
  private final Flux<Boolean> localCommits;
  private final OutboxProperties properties;
  private final Sinks.Many<Boolean> asked = Sinks.many().unicast().onBackpressureBuffer();
  private final Disposable.Swap nextLook = Disposables.swap();
  private volatile boolean open = true;

  RelayWakeUps(
      PostgresNotifications notifications, OutboxCommits commits, OutboxProperties properties) {
    this.notifications = notifications;
    this.localCommits = commits.signals();
    this.properties = properties;
  }

  /**
   * Every reason to look, starting with one at once. Reasons that arrive while the relay is busy
   * collapse into one look after it.
   */
  Flux<Boolean> reasons() {
    return Flux.merge(
            asked.asFlux(),
            localCommits,
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

  /**
   * Asks for a look after {@code busy-poll-interval}: having published, the relay looks again for
   * rows that other writers committed meanwhile (a busy relay gets no notifications).
   */
  void soon() {
    after(properties.busyPollInterval());
  }

  /** Asks for one look after {@code delay}, instead of any look asked for this way before. */
  void after(Duration delay) {
    if (open) {
      nextLook.update(Mono.delay(delay).subscribe(tick -> now()));
    }
  }

  @Override
  public void close() {
    open = false;
    nextLook.dispose();
  }
}
