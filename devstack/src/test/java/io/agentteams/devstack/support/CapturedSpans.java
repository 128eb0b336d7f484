package io.agentteams.devstack.support;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * The spans every service of the shared stack finished, in memory: each service's tracer hands its
 * spans to this one exporter as they end, so a test can look at a whole trace across services.
 * Keeps the most recent {@value #CAPACITY}, so a long test run does not grow without bound.
 */
public final class CapturedSpans implements SpanExporter {

  static final int CAPACITY = 20_000;

  private static final CapturedSpans INSTANCE = new CapturedSpans();

  private final Deque<SpanData> spans = new ArrayDeque<>();

  private CapturedSpans() {}

  /** The spans of one trace finished so far, by every service. */
  public static List<SpanData> ofTrace(String traceId) {
    synchronized (INSTANCE.spans) {
      return INSTANCE.spans.stream().filter(s -> s.getTraceId().equals(traceId)).toList();
    }
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> finished) {
    synchronized (spans) {
      spans.addAll(finished);
      while (spans.size() > CAPACITY) {
        spans.removeFirst();
      }
    }
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode flush() {
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode shutdown() {
    return CompletableResultCode.ofSuccess();
  }

  /** Hands every span a service finishes to the shared capture, where the stack asks for it. */
  @AutoConfiguration
  @ConditionalOnProperty(name = "agentteams.test.capture-spans", havingValue = "true")
  public static class Capture {

    @Bean
    SpanProcessor capturedSpans() {
      return SimpleSpanProcessor.create(INSTANCE);
    }
  }
}
