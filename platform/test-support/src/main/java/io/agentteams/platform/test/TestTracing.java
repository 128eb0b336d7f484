package io.agentteams.platform.test;

import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;

/**
 * A real tracer (Micrometer Tracing over the OpenTelemetry SDK, sampling everything, W3C
 * propagation) whose finished spans land in memory, for tests that assemble the platform by hand
 * and check the traces it makes.
 */
public final class TestTracing {

  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final OtelTracer tracer;
  private final OtelPropagator propagator;
  private final ObservationRegistry observations = ObservationRegistry.create();

  /** A tracer whose spans name {@code service} as their service. */
  public TestTracing(String service) {
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setResource(
                Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), service)))
            .setSampler(Sampler.alwaysOn())
            .addSpanProcessor(SimpleSpanProcessor.create(exporter))
            .build();
    io.opentelemetry.api.trace.Tracer otel = provider.get("agentteams-test");
    OtelCurrentTraceContext current = new OtelCurrentTraceContext();
    this.tracer =
        new OtelTracer(
            otel, current, event -> {}, new OtelBaggageManager(current, List.of(), List.of()));
    this.propagator =
        new OtelPropagator(
            ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otel);
    observations
        .observationConfig()
        .observationHandler(
            new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
  }

  public Tracer tracer() {
    return tracer;
  }

  public Propagator propagator() {
    return propagator;
  }

  /** Observations whose spans this tracer makes. */
  public ObservationRegistry observations() {
    return observations;
  }

  /** The spans finished so far. */
  public List<SpanData> finishedSpans() {
    return exporter.getFinishedSpanItems();
  }
}
