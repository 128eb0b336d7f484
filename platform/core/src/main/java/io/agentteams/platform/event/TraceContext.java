package io.agentteams.platform.event;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * W3C trace context carried by an event (its {@code traceparent} and {@code tracestate} headers),
 * so that work caused by an event continues the trace of the change that wrote it. The tracer
 * produces and reads the values ({@link io.agentteams.platform.tracing.EventTracing}); this record
 * only carries them.
 */
public record TraceContext(String traceparent, @Nullable String tracestate) {

  private static final Pattern TRACEPARENT =
      Pattern.compile("^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$");

  public TraceContext {
    if (!isValid(traceparent)) {
      throw new IllegalArgumentException("not a W3C traceparent: " + traceparent);
    }
  }

  /** Whether the value is a well-formed W3C traceparent header. */
  public static boolean isValid(@Nullable String traceparent) {
    return traceparent != null && TRACEPARENT.matcher(traceparent).matches();
  }

  /** The trace id part of the traceparent. */
  public String traceId() {
    return traceparent.substring(3, 35);
  }

  /** The parent span id part of the traceparent. */
  public String spanId() {
    return traceparent.substring(36, 52);
  }
}
