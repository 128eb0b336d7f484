package io.agentteams.gateway.limits;

import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.ProblemResponses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Limits each bearer token's request rate; over the limit answers 429 with Retry-After. The
 * gateway's own calls back through its API on a client's behalf ({@link LoopbackCalls}) were
 * counted as the client's request already and pass uncounted.
 */
@Component
public class RateLimitFilter implements WebFilter, Ordered {

  private final TokenBuckets buckets;
  private final LoopbackCalls loopback;
  private final Counter refused;

  public RateLimitFilter(
      EdgeLimitProperties limits, LoopbackCalls loopback, Clock clock, MeterRegistry meters) {
    this.loopback = loopback;
    this.buckets =
        new TokenBuckets(
            limits.requestsPerSecond(), limits.burst(), limits.maxTrackedTokens(), clock);
    this.refused =
        Counter.builder("agentteams.gateway.rate.limited")
            .description("Requests refused because their token exceeded its rate")
            .register(meters);
  }

  @Override
  public Mono<Void> filter(ServerWebExchange original, WebFilterChain chain) {
    boolean loopbackCall = loopback.isLoopbackCall(original.getRequest());
    // The mark never travels further, whoever sent it.
    ServerWebExchange exchange =
        original.getRequest().getHeaders().containsHeader(LoopbackCalls.HEADER)
            ? original
                .mutate()
                .request(request -> request.headers(h -> h.remove(LoopbackCalls.HEADER)))
                .build()
            : original;
    if (loopbackCall) {
      return chain.filter(exchange);
    }
    String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
    if (authorization == null || !exchange.getRequest().getPath().value().startsWith("/api/")) {
      return chain.filter(exchange);
    }
    TokenBuckets.Decision decision = buckets.take(fingerprint(authorization));
    if (decision.allowed()) {
      return chain.filter(exchange);
    }
    refused.increment();
    exchange
        .getResponse()
        .getHeaders()
        .set(HttpHeaders.RETRY_AFTER, Long.toString(decision.retryAfterSeconds()));
    return ProblemResponses.write(
        exchange,
        new ProblemException(
            ProblemException.Kind.TOO_MANY_REQUESTS,
            "rate-limited",
            "too many requests for this token; retry after " + decision.retryAfterSeconds() + " s",
            Map.of("retry_after_seconds", decision.retryAfterSeconds())));
  }

  /** Buckets are keyed by a digest, so tokens themselves are not kept in memory. */
  private static String fingerprint(String authorization) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(authorization.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public int getOrder() {
    // Before authentication: a flood of requests costs no signature checks.
    return Ordered.HIGHEST_PRECEDENCE + 15;
  }
}
