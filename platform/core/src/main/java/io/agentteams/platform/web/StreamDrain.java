package io.agentteams.platform.web;

import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.context.SmartLifecycle;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * Ends long-lived streams (SSE) when the application shuts down, before the web server's graceful
 * shutdown waits for in-flight requests: a stream never finishes on its own, so the server would
 * otherwise wait out its whole timeout while clients stay attached to a replica that is going away.
 * Ended streams reconnect, to another replica, and resume with {@code Last-Event-ID}; a stream
 * opened after shutdown began ends at once.
 */
public final class StreamDrain implements SmartLifecycle {

  private final Sinks.One<Boolean> stopping = Sinks.one();
  private final AtomicBoolean running = new AtomicBoolean();

  /** The stream, ending when shutdown begins. */
  public <T> Flux<T> endOnShutdown(Flux<T> stream) {
    return stream.takeUntilOther(stopping.asMono());
  }

  @Override
  public void start() {
    running.set(true);
  }

  @Override
  public void stop() {
    stopping.tryEmitValue(Boolean.TRUE);
    running.set(false);
  }

  @Override
  public boolean isRunning() {
    return running.get();
  }

  /** Stops before the web server's graceful shutdown (a lower phase) begins to wait. */
  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE;
  }
}
