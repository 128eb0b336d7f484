package io.agentteams.gateway.limits;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.ProblemResponses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The gateway's request budgets: one per authenticated owner, shared by every token of that owner
 * (its own, its agents' worker tokens, its members' and jobs' member tokens), so minting more
 * tokens buys no more requests; and one per client address for requests that are not authenticated
 * (no token, or a token that is refused), so random tokens count as one client. Over budget answers
 * 429 with Retry-After.
 */
@Component
public class EdgeRateLimits {

  private final RequestBudgets principals;
  private final RequestBudgets addresses;
  private final Counter refusedPrincipals;
  private final Counter refusedAddresses;

  public EdgeRateLimits(EdgeLimitProperties limits, MeterRegistry meters) {
    this.principals =
        new RequestBudgets(
            limits.requestsPerSecond(), limits.burst(), limits.maxTrackedPrincipals());
    this.addresses =
        new RequestBudgets(
            limits.anonymousRequestsPerSecond(),
            limits.anonymousBurst(),
            limits.maxTrackedAddresses());
    this.refusedPrincipals = refused(meters, "principal");
    this.refusedAddresses = refused(meters, "address");
    Gauge.builder("agentteams.gateway.rate.buckets", principals, RequestBudgets::size)
        .tag("key", "principal")
        .description("Request budgets kept in memory")
        .register(meters);
    Gauge.builder("agentteams.gateway.rate.buckets", addresses, RequestBudgets::size)
        .tag("key", "address")
        .description("Request budgets kept in memory")
        .register(meters);
  }

  private static Counter refused(MeterRegistry meters, String key) {
    return Counter.builder("agentteams.gateway.rate.limited")
        .tag("key", key)
        .description("Requests refused because their principal or address exceeded its rate")
        .register(meters);
  }

  /**
   * Counts an authenticated request against its owner's budget.
   *
   * @return empty to go ahead, or the 429 written
   */
  public @Nullable Mono<Void> refuseOverBudget(ServerWebExchange exchange, Caller caller) {
    RequestBudgets.Decision decision = principals.take("owner:" + caller.ownerId());
    if (decision.allowed()) {
      return null;
    }
    refusedPrincipals.increment();
    return tooMany(exchange, decision, "this owner");
  }

  /**
   * Counts an unauthenticated request against its client address's budget.
   *
   * @return null to go ahead, or the 429 written
   */
  public @Nullable Mono<Void> refuseOverAnonymousBudget(ServerWebExchange exchange) {
    RequestBudgets.Decision decision = addresses.take("address:" + address(exchange.getRequest()));
    if (decision.allowed()) {
      return null;
    }
    refusedAddresses.increment();
    return tooMany(exchange, decision, "this client address");
  }

  /** The client address; behind a proxy, the forwarded one when forward headers are trusted. */
  private static String address(ServerHttpRequest request) {
    InetSocketAddress remote = request.getRemoteAddress();
    if (remote == null) {
      return "unknown";
    }
    return remote.getAddress() != null
        ? remote.getAddress().getHostAddress()
        : remote.getHostString();
  }

  private static Mono<Void> tooMany(
      ServerWebExchange exchange, RequestBudgets.Decision decision, String whose) {
    exchange
        .getResponse()
        .getHeaders()
        .set(HttpHeaders.RETRY_AFTER, Long.toString(decision.retryAfterSeconds()));
    return ProblemResponses.write(
        exchange,
        new ProblemException(
            ProblemException.Kind.TOO_MANY_REQUESTS,
            "rate-limited",
            "too many requests for "
                + whose
                + "; retry after "
                + decision.retryAfterSeconds()
                + " s",
            Map.of("retry_after_seconds", decision.retryAfterSeconds())));
  }
}
