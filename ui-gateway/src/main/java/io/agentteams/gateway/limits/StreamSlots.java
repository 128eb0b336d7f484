package io.agentteams.gateway.limits;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.ProblemResponses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import reactor.core.publisher.Mono;

/**
 * At most {@code max-streams-per-principal} open event streams per principal on this replica (an
 * owner, an agent's worker, a team member: each token's subject): a stream holds a connection and a
 * subscriber buffer for as long as it lives, so one principal cannot hold a replica's memory by
 * opening streams. Beyond the limit the gateway answers 429 until one of its streams closes.
 */
@Component
public class StreamSlots {

  /** Gauge of the event streams open on this replica. */
  public static final String OPEN = "agentteams.gateway.streams.open";

  /** Counter of streams refused because their principal held as many as it may. */
  public static final String REFUSED = "agentteams.gateway.streams.refused";

  private static final List<PathPattern> STREAMS =
      List.of(
          PathPatternParser.defaultInstance.parse("/api/v1/teams/{teamId}/events"),
          PathPatternParser.defaultInstance.parse("/api/v1/teams/{teamId}/members/{member}/events"),
          PathPatternParser.defaultInstance.parse("/api/v1/agents/{agentId}/jobs/stream"));

  private final Map<Caller, AtomicInteger> open = new ConcurrentHashMap<>();
  private final AtomicInteger total = new AtomicInteger();
  private final int max;
  private final Counter refused;

  public StreamSlots(EdgeLimitProperties limits, MeterRegistry meters) {
    this.max = limits.maxStreamsPerPrincipal();
    Gauge.builder(OPEN, total, AtomicInteger::get)
        .description("Event streams open on this gateway replica")
        .register(meters);
    this.refused =
        Counter.builder(REFUSED)
            .description("Event streams refused: their principal held as many as it may")
            .register(meters);
  }

  /** Whether the request opens an event stream. */
  public static boolean isStream(ServerWebExchange exchange) {
    return STREAMS.stream()
        .anyMatch(
            pattern -> pattern.matches(exchange.getRequest().getPath().pathWithinApplication()));
  }

  /**
   * Runs the stream while it holds one of its principal's slots, or answers 429 when the principal
   * holds them all.
   */
  public Mono<Void> hold(ServerWebExchange exchange, Caller caller, Mono<Void> stream) {
    // The caller itself is the principal: an owner, one agent's worker, one member of one team.
    Caller principal = caller;
    return Mono.defer(
        () -> {
          AtomicInteger held = open.computeIfAbsent(principal, k -> new AtomicInteger());
          if (held.incrementAndGet() > max) {
            release(principal);
            refused.increment();
            exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
            return ProblemResponses.write(
                exchange,
                new ProblemException(
                    ProblemException.Kind.TOO_MANY_REQUESTS,
                    "too-many-streams",
                    "this principal holds "
                        + max
                        + " open event streams on this gateway, as many as it may; close one"
                        + " first",
                    Map.of("limit", max)));
          }
          total.incrementAndGet();
          return stream.doFinally(
              signal -> {
                total.decrementAndGet();
                release(principal);
              });
        });
  }

  /** The streams the principal holds open now. */
  int held(Caller caller) {
    AtomicInteger held = open.get(caller);
    return held == null ? 0 : held.get();
  }

  private void release(Caller principal) {
    // Removed once the principal holds none, so the table holds only principals with open streams.
    open.computeIfPresent(principal, (k, held) -> held.decrementAndGet() <= 0 ? null : held);
  }
}
