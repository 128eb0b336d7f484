package io.agentteams.platform.event;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * W3C trace context carried by an event, so that work caused by an event can be traced back to the
 * request that started it.
 */
public record TraceContext(String traceparent, @Nullable String tracestate) {

  /** The key under which the current trace context lives in a Reactor context. */
  public static final String CONTEXT_KEY = TraceContext.class.getName();

  private static final Pattern TRACEPARENT =
      Pattern.compile("^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$");
  private static final SecureRandom random = new SecureRandom();

  public TraceContext {
    if (!isValid(traceparent)) {
      throw new IllegalArgumentException("not a W3C traceparent: " + traceparent);
    }
  }

  /** Whether the value is a well-formed W3C traceparent header. */
  public static boolean isValid(@Nullable String traceparent) {
    return traceparent != null && TRACEPARENT.matcher(traceparent).matches();
  }

  /** A new trace, sampled. */
  public static TraceContext newTrace() {
    byte[] traceId = new byte[16];
    byte[] spanId = new byte[8];
    random.nextBytes(traceId);
    random.nextBytes(spanId);
    HexFormat hex = HexFormat.of();
    return new TraceContext(
        "00-" + hex.formatHex(traceId) + "-" + hex.formatHex(spanId) + "-01", null);
  }

  /** The trace id part of the traceparent. */
  public String traceId() {
    return traceparent.substring(3, 35);
  }
}
