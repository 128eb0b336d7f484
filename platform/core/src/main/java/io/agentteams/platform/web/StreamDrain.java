package io.agentteams.platform.web;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.context.SmartLifecycle;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * Ends long-lived streams (SSE) when the application shuts down, before the web server's graceful
 * shutdown waits for in-flight requests: a stream never finishes on its own, so the server would
 * otherwise wait out its whole timeout while clients stay attached to a replica that is going away.
 * Ended streams reconnect, to another replica, and resume with {@code Last-Event-ID}; a stream
 * opened after shutdown began ends at once. A context started again after a stop (the test
 * framework pauses cached contexts that way) serves streams again.
 */
public final class StreamDrain implements SmartLifecycle {

  private final AtomicReference<Sinks.One<Boolean>> stopping = new AtomicReference<>(Sinks.one());
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicBoolean stopped = new AtomicBoolean();

  /** The stream, ending when shutdown begins. */
  public <T> Flux<T> endOnShutdown(Flux<T> stream) {
    return stream.takeUntilOther(stopping.get().asMono());
  }

  @Override
  public void start() {
    // A stop fired its signal for good: streams opened from now on wait for a signal of their own.
    if (stopped.compareAndSet(true, false)) {
      stopping.set(Sinks.one());
    }
    running.set(true);
  }

  @Override
  public void stop() {
    stopped.set(true);
    stopping.get().tryEmitValue(Boolean.TRUE);
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
