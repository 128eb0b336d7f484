package io.agentteams.sdk.worker;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.Backoff;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.problem.ApiException;
import io.agentteams.sdk.streams.ServerSentEvent;
import io.agentteams.sdk.streams.SseReader;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * The worker's job stream: holds it open on its own thread, reconnects with back-off when it drops
 * (resuming from the last event id), takes a connection silent past the idle time-out for dead, and
 * hands each offer and interrupt it reads to the {@link Events}.
 */
final class JobStream {

  /** What the stream hears. */
  interface Events {

    /** A job was offered. */
    void offered(JobOffer offer);

    /** The team's lead interrupted a job. */
    void interrupted(UUID jobId);

    /** The stream was refused for good (a token or agent that retrying cannot fix). */
    void refused(ApiException refusal);
  }

  private final HttpTransport http;
  private final ApiPath path;
  private final Backoff backoff;
  private final Duration idleTimeout;
  private final WorkerListener listener;
  private final BooleanSupplier running;
  private final Events events;
  private final Thread thread;
  private final AtomicReference<@Nullable InputStream> body = new AtomicReference<>();
  private volatile @Nullable String lastEventId;
  private volatile Instant lastHeard = Instant.now();

  JobStream(
      HttpTransport http,
      ApiPath path,
      Backoff backoff,
      Duration idleTimeout,
      WorkerListener listener,
      BooleanSupplier running,
      Events events,
      ThreadFactory threads) {
    this.http = http;
    this.path = path;
    this.backoff = backoff;
    this.idleTimeout = idleTimeout;
    this.listener = listener;
    this.running = running;
    this.events = events;
    this.thread = threads.newThread(this::hold);
  }

  void open() {
    thread.start();
  }

  private void hold() {
    int failures = 0;
    while (running.getAsBoolean()) {
      try (InputStream in = http.openStream(path, lastEventId);
          SseReader reader = new SseReader(in, () -> lastHeard = Instant.now())) {
        lastHeard = Instant.now();
        body.set(in);
        if (!running.getAsBoolean()) {
          return;
        }
        failures = 0;
        listener.connected();
        ServerSentEvent event;
        while ((event = reader.next()) != null) {
          if (event.id() != null) {
            lastEventId = event.id();
          }
          if ("job".equals(event.event())) {
            offer(event.data());
          } else if ("interrupt".equals(event.event())) {
            interrupt(event.data());
          }
        }
        listener.disconnected(new IOException("the job stream ended"));
      } catch (ApiException e) {
        if (!e.retryable() && running.getAsBoolean()) {
          // A refused token or an agent that is not this token's cannot be fixed by retrying.
          listener.disconnected(e);
          events.refused(e);
          return;
        }
        listener.disconnected(e);
      } catch (IOException | RuntimeException e) {
        listener.disconnected(e);
      } finally {
        body.set(null);
      }
      if (!running.getAsBoolean()) {
        return;
      }
      if (!Pause.waitFor(backoff.delay(failures++))) {
        return;
      }
    }
  }

  private void offer(String data) {
    JobOffer offer;
    try {
      offer = http.json().readValue(data, JobOffer.class);
    } catch (JacksonException e) {
      listener.disconnected(new IOException("unreadable job offer: " + e.getMessage(), e));
      return;
    }
    listener.offered(offer);
    events.offered(offer);
  }

  private void interrupt(String data) {
    UUID jobId;
    try {
      jobId = UUID.fromString(http.json().readTree(data).path("job_id").asString(""));
    } catch (JacksonException | IllegalArgumentException e) {
      listener.disconnected(new IOException("unreadable interrupt: " + e.getMessage(), e));
      return;
    }
    events.interrupted(jobId);
  }

  /**
   * Not even a heartbeat comment for the idle time-out: the connection is dead though not closed.
   */
  void dropIfSilent(Instant now) {
    if (body.get() != null && lastHeard.plus(idleTimeout).isBefore(now)) {
      closeQuietly(body.getAndSet(null)); // the stream thread reconnects
    }
  }

  /** Closes the stream for good: the worker stops. */
  void close() {
    closeQuietly(body.getAndSet(null));
    thread.interrupt();
  }

  private static void closeQuietly(@Nullable InputStream open) {
    if (open != null) {
      try {
        open.close();
      } catch (IOException ignored) {
        // closing is all that is wanted
      }
    }
  }
}
