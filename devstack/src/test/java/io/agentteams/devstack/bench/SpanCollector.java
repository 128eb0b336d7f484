package io.agentteams.devstack.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.zip.GZIPInputStream;
import org.HdrHistogram.Histogram;

/**
 * An OTLP/HTTP trace receiver on loopback for the stack's span exporters, and the per-hop breakdown
 * of the operations the benchmark traced: for every kind of span an operation's trace holds
 * (service, span kind, name), how many there are per operation, when they start after the trace's
 * first span and how long they last.
 *
 * <p>The OTLP protobuf messages are decoded by hand (the few fields needed), so the benchmark needs
 * no generated classes.
 */
final class SpanCollector implements AutoCloseable {

  private static final String[] KINDS = {
    "UNSPECIFIED", "INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER"
  };

  /** One finished span. */
  record Span(
      String traceId,
      String spanId,
      String parentId,
      String service,
      String kind,
      String name,
      long startNanos,
      long endNanos) {

    String hop() {
      return service + " " + kind + " " + name;
    }
  }

  private final HttpServer server;
  private final ConcurrentLinkedQueue<Span> received = new ConcurrentLinkedQueue<>();
  // Trace id -> the operation the benchmark started it for.
  private final Map<String, String> traced = new ConcurrentHashMap<>();

  SpanCollector() {
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new IllegalStateException("cannot open the span receiver", e);
    }
    server.setExecutor(Executors.newSingleThreadExecutor());
    server.createContext(
        "/v1/traces",
        exchange -> {
          try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            if ("gzip"
                .equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
              body = new GZIPInputStream(new java.io.ByteArrayInputStream(body)).readAllBytes();
            }
            decodeRequest(ByteBuffer.wrap(body));
          } catch (RuntimeException malformed) {
            // Counted as nothing; the exporter retries what it cannot send, not what we misread.
          }
          exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
  }

  /** The endpoint for {@code management.opentelemetry.tracing.export.otlp.endpoint}. */
  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
  }

  /** A W3C {@code traceparent} that starts a sampled trace for an operation. */
  String traceparent(String operation) {
    HexFormat hex = HexFormat.of();
    java.util.concurrent.ThreadLocalRandom random =
        java.util.concurrent.ThreadLocalRandom.current();
    String trace = hex.toHexDigits(random.nextLong()) + hex.toHexDigits(random.nextLong());
    traced.put(trace, operation);
    return "00-" + trace + "-" + hex.toHexDigits(random.nextLong()) + "-01";
  }

  /** Forgets what was received and traced so far (the start of a measured step). */
  void reset() {
    received.clear();
    traced.clear();
  }

  /** Prints, per operation, the hops of its traces. */
  void printBreakdown(PrintStream out) {
    Map<String, List<Span>> byTrace = new LinkedHashMap<>();
    for (Span span : received) {
      if (traced.containsKey(span.traceId())) {
        byTrace.computeIfAbsent(span.traceId(), t -> new ArrayList<>()).add(span);
      }
    }
    Map<String, List<List<Span>>> byOperation = new LinkedHashMap<>();
    byTrace.forEach(
        (trace, spans) ->
            byOperation.computeIfAbsent(traced.get(trace), op -> new ArrayList<>()).add(spans));
    byOperation.forEach((operation, traces) -> printOperation(out, operation, traces));
  }

  private static void printOperation(PrintStream out, String operation, List<List<Span>> traces) {
    Map<String, Histogram> starts = new LinkedHashMap<>();
    Map<String, Histogram> durations = new LinkedHashMap<>();
    List<Map.Entry<String, Long>> order = new ArrayList<>();
    for (List<Span> spans : traces) {
      long first = spans.stream().mapToLong(Span::startNanos).min().orElse(0);
      for (Span span : spans) {
        String hop = span.hop();
        if (!starts.containsKey(hop)) {
          order.add(Map.entry(hop, span.startNanos() - first));
        }
        starts
            .computeIfAbsent(hop, h -> new Histogram(3))
            .recordValue(Math.max(0, (span.startNanos() - first) / 1000));
        durations
            .computeIfAbsent(hop, h -> new Histogram(3))
            .recordValue(Math.max(0, (span.endNanos() - span.startNanos()) / 1000));
      }
    }
    out.printf(
        Locale.ROOT,
        "  %s: %d traces; each hop's start after the trace's first span and its duration (ms)%n",
        operation,
        traces.size());
    out.println(
        "  | hop | spans per operation | start p50 | start p99 | duration p50 | duration p99 |");
    out.println("  |---|---|---|---|---|---|");
    starts.keySet().stream()
        .sorted(
            java.util.Comparator.comparingDouble(hop -> starts.get(hop).getValueAtPercentile(50)))
        .forEach(
            hop ->
                out.printf(
                    Locale.ROOT,
                    "  | %s | %.2f | %.1f | %.1f | %.1f | %.1f |%n",
                    hop,
                    starts.get(hop).getTotalCount() / (double) traces.size(),
                    starts.get(hop).getValueAtPercentile(50) / 1000.0,
                    starts.get(hop).getValueAtPercentile(99) / 1000.0,
                    durations.get(hop).getValueAtPercentile(50) / 1000.0,
                    durations.get(hop).getValueAtPercentile(99) / 1000.0));
  }

  @Override
  public void close() {
    server.stop(0);
  }

  // --- OTLP protobuf, just the fields needed ---

  private void decodeRequest(ByteBuffer request) {
    // ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
    while (request.hasRemaining()) {
      long tag = varint(request);
      if (tag >>> 3 == 1 && (tag & 7) == 2) {
        decodeResourceSpans(slice(request));
      } else {
        skip(request, (int) (tag & 7));
      }
    }
  }

  private void decodeResourceSpans(ByteBuffer resourceSpans) {
    // ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
    String service = "?";
    List<ByteBuffer> scopes = new ArrayList<>();
    while (resourceSpans.hasRemaining()) {
      long tag = varint(resourceSpans);
      int field = (int) (tag >>> 3);
      if (field == 1 && (tag & 7) == 2) {
        String named = attribute(slice(resourceSpans), "service.name", 1);
        if (named != null) {
          service = named;
        }
      } else if (field == 2 && (tag & 7) == 2) {
        scopes.add(slice(resourceSpans));
      } else {
        skip(resourceSpans, (int) (tag & 7));
      }
    }
    for (ByteBuffer scope : scopes) {
      // ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
      while (scope.hasRemaining()) {
        long tag = varint(scope);
        if (tag >>> 3 == 2 && (tag & 7) == 2) {
          received.add(decodeSpan(slice(scope), service));
        } else {
          skip(scope, (int) (tag & 7));
        }
      }
    }
  }

  private static Span decodeSpan(ByteBuffer span, String service) {
    HexFormat hex = HexFormat.of();
    String trace = "";
    String id = "";
    String parent = "";
    String name = "";
    String kind = KINDS[0];
    long start = 0;
    long end = 0;
    while (span.hasRemaining()) {
      long tag = varint(span);
      int field = (int) (tag >>> 3);
      int wire = (int) (tag & 7);
      switch (field) {
        case 1 -> trace = hex.formatHex(bytes(span));
        case 2 -> id = hex.formatHex(bytes(span));
        case 4 -> parent = hex.formatHex(bytes(span));
        case 5 -> name = new String(bytes(span), StandardCharsets.UTF_8);
        case 6 -> {
          int value = (int) varint(span);
          kind = value >= 0 && value < KINDS.length ? KINDS[value] : KINDS[0];
        }
        case 7 -> start = span.order(ByteOrder.LITTLE_ENDIAN).getLong();
        case 8 -> end = span.order(ByteOrder.LITTLE_ENDIAN).getLong();
        default -> skip(span, wire);
      }
    }
    return new Span(trace, id, parent, service, kind, name, start, end);
  }

  /** The string value of a key in a message's repeated KeyValue field. */
  private static String attribute(ByteBuffer message, String key, int field) {
    while (message.hasRemaining()) {
      long tag = varint(message);
      if (tag >>> 3 == field && (tag & 7) == 2) {
        ByteBuffer keyValue = slice(message);
        String foundKey = null;
        String value = null;
        while (keyValue.hasRemaining()) {
          long inner = varint(keyValue);
          if (inner >>> 3 == 1 && (inner & 7) == 2) {
            foundKey = new String(bytes(keyValue), StandardCharsets.UTF_8);
          } else if (inner >>> 3 == 2 && (inner & 7) == 2) {
            ByteBuffer any = slice(keyValue);
            while (any.hasRemaining()) {
              long anyTag = varint(any);
              if (anyTag >>> 3 == 1 && (anyTag & 7) == 2) {
                value = new String(bytes(any), StandardCharsets.UTF_8);
              } else {
                skip(any, (int) (anyTag & 7));
              }
            }
          } else {
            skip(keyValue, (int) (inner & 7));
          }
        }
        if (key.equals(foundKey)) {
          return value;
        }
      } else {
        skip(message, (int) (tag & 7));
      }
    }
    return null;
  }

  private static long varint(ByteBuffer buffer) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = buffer.get();
      value |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("varint too long");
  }

  private static ByteBuffer slice(ByteBuffer buffer) {
    int length = (int) varint(buffer);
    ByteBuffer part = buffer.slice(buffer.position(), length);
    buffer.position(buffer.position() + length);
    return part;
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer part = slice(buffer);
    byte[] bytes = new byte[part.remaining()];
    part.get(bytes);
    return bytes;
  }

  private static void skip(ByteBuffer buffer, int wireType) {
    switch (wireType) {
      case 0 -> varint(buffer);
      case 1 -> buffer.position(buffer.position() + 8);
      case 2 -> slice(buffer);
      case 5 -> buffer.position(buffer.position() + 4);
      default -> throw new IllegalArgumentException("wire type " + wireType);
    }
  }
}
