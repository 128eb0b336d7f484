package io.agentteams.sdk.streams;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.Backoff;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.problem.AgentTeamsException;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A server-sent event stream held open on a thread of its own: when the connection drops it
 * reconnects with back-off and jitter and sends the last event id it saw, so the stream resumes
 * where it left off. A refusal that retrying cannot fix (401, 403, 404) ends it.
 */
public final class EventSubscription implements AutoCloseable {

  /** What the subscriber hears about besides events. */
  public interface Listener extends Consumer<ServerSentEvent> {

    /** The stream is open (again). */
    default void connected() {}

    /** The stream dropped or could not open; it will be tried again unless this is the end. */
    default void disconnected(Throwable cause, boolean ending) {}
  }

  private final HttpTransport http;
  private final ApiPath path;
  private final Listener listener;
  private final Backoff backoff;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicReference<@Nullable InputStream> body = new AtomicReference<>();
  private final Thread thread;
  private volatile @Nullable String lastEventId;

  EventSubscription(
      HttpTransport http,
      ApiPath path,
      @Nullable String lastEventId,
      Listener listener,
      Backoff backoff,
      String name) {
    this.http = http;
    this.path = path;
    this.listener = listener;
    this.backoff = backoff;
    this.lastEventId = lastEventId;
    this.thread = new Thread(this::run, name);
    this.thread.setDaemon(true);
  }

  EventSubscription start() {
    thread.start();
    return this;
  }

  /** The id of the last event received: reconnecting with it resumes after it. */
  public @Nullable String lastEventId() {
    return lastEventId;
  }

  private void run() {
    int failures = 0;
    while (!closed.get()) {
      try (InputStream in = http.openStream(path, lastEventId);
          SseReader reader = new SseReader(in)) {
        body.set(in);
        if (closed.get()) {
          return;
        }
        failures = 0;
        listener.connected();
        ServerSentEvent event;
        while ((event = reader.next()) != null) {
          if (event.id() != null) {
            lastEventId = event.id();
          }
          listener.accept(event);
        }
        listener.disconnected(new IOException("the stream ended"), false);
      } catch (AgentTeamsException e) {
        if (!e.retryable() && !closed.get()) {
          listener.disconnected(e, true);
          return;
        }
        listener.disconnected(e, closed.get());
      } catch (IOException | RuntimeException e) {
        listener.disconnected(e, closed.get());
      } finally {
        body.set(null);
      }
      if (closed.get()) {
        return;
      }
      try {
        Thread.sleep(backoff.delay(failures++).toMillis());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Closes the stream and stops reconnecting. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      InputStream open = body.get();
      if (open != null) {
        try {
          open.close();
        } catch (IOException ignored) {
          // closing is all that is wanted
        }
      }
      thread.interrupt();
    }
  }
}
