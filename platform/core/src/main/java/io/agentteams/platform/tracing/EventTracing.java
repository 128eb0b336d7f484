package io.agentteams.platform.tracing;

import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.TraceContext;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Carries one trace across the outbox and Kafka. A change stores the W3C context of the span that
 * made it with its outbox row ({@link #current}); the relay publishes the row in a producer span
 * that is a child of that context and writes its own context into the record's headers ({@link
 * #publishing}); a consumer handles the event in a span that is a child of the publish ({@link
 * #handling}), and so does the gateway's fan-out to its streams ({@link #delivering}).
 *
 * <p>Built on Micrometer Tracing, so the tracer behind it (OpenTelemetry in the services) decides
 * sampling and export; {@link #NONE} traces nothing.
 */
public final class EventTracing {

  /** Traces nothing: for code assembled without a tracer (tests, tools). */
  public static final EventTracing NONE =
      new EventTracing(Tracer.NOOP, Propagator.NOOP, ObservationRegistry.NOOP);

  /** The observation (and metric) of a consumer handling one event. */
  public static final String HANDLE_OBSERVATION = "agentteams.consumer.handle";

  private static final String TRACEPARENT = "traceparent";
  private static final String TRACESTATE = "tracestate";
  private static final ContextSnapshotFactory snapshots = ContextSnapshotFactory.builder().build();

  private final Tracer tracer;
  private final Propagator propagator;
  private final ObservationRegistry observations;

  public EventTracing(Tracer tracer, Propagator propagator, ObservationRegistry observations) {
    this.tracer = tracer;
    this.propagator = propagator;
    this.observations = observations;
  }

  /**
   * The W3C context of the span current in a Reactor context (a request's server span, a consumer's
   * handling span), to store with the event a change writes; null outside any span.
   */
  public @Nullable TraceContext current(ContextView context) {
    try (ContextSnapshot.Scope scope = snapshots.setThreadLocalsFrom(context)) {
      Span span = tracer.currentSpan();
      return span == null ? null : contextOf(span);
    }
  }

  private @Nullable TraceContext contextOf(Span span) {
    Map<String, String> fields = new HashMap<>();
    propagator.inject(span.context(), fields, Map::put);
    String traceparent = fields.get(TRACEPARENT);
    return TraceContext.isValid(traceparent)
        ? new TraceContext(traceparent, fields.get(TRACESTATE))
        : null;
  }

  /**
   * Starts the span of publishing one stored event: a producer span, child of the context stored
   * with the event (a new trace when it has none). End it when the broker answered.
   *
   * @param traceparent the W3C context stored with the event, if any
   */
  public Publish publishing(
      @Nullable String traceparent, String topic, String eventType, String eventId) {
    Span span =
        propagator
            .extract(stored(traceparent), Map::get)
            .name("publish " + topic)
            .kind(Span.Kind.PRODUCER)
            .remoteServiceName("kafka")
            .tag("messaging.system", "kafka")
            .tag("messaging.operation.type", "send")
            .tag("messaging.destination.name", topic)
            .tag("messaging.message.id", eventId)
            .tag("agentteams.event.type", eventType)
            .start();
    return new Publish(span, propagator);
  }

  /**
   * Runs a consumer's handling of one event in a span (and a timer, {@value #HANDLE_OBSERVATION})
   * that continues the event's trace; the span is current for everything the work does, so events
   * it writes and lines it logs belong to the same trace.
   *
   * @param subscription the consuming subscription
   * @param event the event; its {@link EventEnvelope#trace()} is the parent (a new trace if none)
   */
  public <T> Mono<T> handling(String subscription, EventEnvelope event, Supplier<Mono<T>> work) {
    return Mono.defer(
        () -> {
          ReceiverContext<Map<String, String>> context =
              new ReceiverContext<>(Map::get, Kind.CONSUMER);
          context.setCarrier(stored(event.trace()));
          context.setRemoteServiceName("kafka");
          Observation observation =
              Observation.createNotStarted(HANDLE_OBSERVATION, () -> context, observations)
                  .contextualName("handle " + event.type())
                  .lowCardinalityKeyValue("subscription", subscription)
                  .lowCardinalityKeyValue("event.type", event.type())
                  .highCardinalityKeyValue("messaging.message.id", event.eventId().toString())
                  .start();
          return Mono.defer(work)
              .doOnError(observation::error)
              .doFinally(signal -> observation.stop())
              .contextWrite(c -> c.put(ObservationThreadLocalAccessor.KEY, observation));
        });
  }

  /**
   * Runs the gateway's fan-out of one event read from Kafka to its streams in a consumer span,
   * child of the publish whose context the record's headers carry.
   *
   * @param traceparent the record's {@code traceparent} header, if any
   * @param work the fan-out; returns how many streams were handed the event
   */
  public int delivering(
      @Nullable String traceparent, String topic, String eventType, Supplier<Integer> work) {
    Span span =
        propagator
            .extract(stored(traceparent), Map::get)
            .name("deliver " + topic)
            .kind(Span.Kind.CONSUMER)
            .remoteServiceName("kafka")
            .tag("messaging.system", "kafka")
            .tag("messaging.operation.type", "process")
            .tag("messaging.destination.name", topic)
            .tag("agentteams.event.type", eventType)
            .start();
    try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
      int streams = work.get();
      span.tag("agentteams.streams", streams);
      return streams;
    } catch (RuntimeException e) {
      span.error(e);
      throw e;
    } finally {
      span.end();
    }
  }

  private static Map<String, String> stored(@Nullable TraceContext trace) {
    if (trace == null) {
      return Map.of();
    }
    return trace.tracestate() == null
        ? Map.of(TRACEPARENT, trace.traceparent())
        : Map.of(TRACEPARENT, trace.traceparent(), TRACESTATE, trace.tracestate());
  }

  private static Map<String, String> stored(@Nullable String traceparent) {
    return TraceContext.isValid(traceparent) ? Map.of(TRACEPARENT, traceparent) : Map.of();
  }

  /** A publish in flight: its context goes into the record's headers; end it with the outcome. */
  public static final class Publish {

    private final Span span;
    private final Propagator propagator;

    private Publish(Span span, Propagator propagator) {
      this.span = span;
      this.propagator = propagator;
    }

    /** Writes this publish's trace context as headers, e.g. into a Kafka record's. */
    public void writeHeaders(BiConsumer<String, String> header) {
      propagator.inject(span.context(), header, BiConsumer::accept);
    }

    /** Ends the span; with an error when the send failed. */
    public void end(@Nullable Throwable error) {
      if (error != null) {
        span.error(error);
      }
      span.end();
    }
  }
}
