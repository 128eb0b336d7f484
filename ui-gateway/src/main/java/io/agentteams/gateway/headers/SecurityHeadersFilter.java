package io.agentteams.gateway.headers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Security headers on every response of the gateway, set just before it is committed where nothing
 * more specific set them (the console's chain sets its own Content-Security-Policy and referrer
 * policy for its pages): {@code X-Content-Type-Options: nosniff}, a Content-Security-Policy (none
 * at all for the API, scripts and styles from this origin for Swagger UI), {@code Referrer-Policy:
 * no-referrer}, {@code X-Frame-Options: DENY}, HSTS when the request came over TLS (directly or as
 * a trusted proxy says, {@link TrustedProxies}; max-age {@code
 * agentteams.gateway.forwarded.hsts-max-age}), and {@code Cache-Control: no-store} on every
 * response that hands out a token.
 */
@Component
public class SecurityHeadersFilter implements WebFilter, Ordered {

  /** The policy of everything that is not a page: nothing may be loaded or framed. */
  public static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'";

  /** Swagger UI's page: its own scripts and styles (it sets some styles inline), nothing else. */
  public static final String API_DOCS_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline';"
          + " img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none';"
          + " form-action 'self'; frame-ancestors 'none'";

  /** The default: two years, this host and its subdomains. */
  public static final String HSTS = "max-age=63072000; includeSubDomains";

  private final String hsts;

  /** With the default HSTS max-age. */
  public SecurityHeadersFilter() {
    this.hsts = HSTS;
  }

  @Autowired
  public SecurityHeadersFilter(ForwardedHeadersProperties forwarded) {
    this.hsts = forwarded.hsts();
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    ServerHttpResponse response = exchange.getResponse();
    response.beforeCommit(
        () -> {
          HttpHeaders headers = response.getHeaders();
          String path = exchange.getRequest().getPath().value();
          headers.set("X-Content-Type-Options", "nosniff");
          // The console's pages get their policy from the console's security chain, which writes
          // it only where none is set yet: this filter's runs first, so it leaves them alone.
          if (!isConsole(path)) {
            setIfAbsent(
                headers,
                "Content-Security-Policy",
                path.startsWith("/swagger-ui") ? API_DOCS_POLICY : API_POLICY);
            setIfAbsent(headers, "Referrer-Policy", "no-referrer");
            setIfAbsent(headers, "X-Frame-Options", "DENY");
          }
          if ("https".equalsIgnoreCase(exchange.getRequest().getURI().getScheme())) {
            setIfAbsent(headers, "Strict-Transport-Security", hsts);
          }
          if (handsOutTokens(exchange)) {
            headers.set(HttpHeaders.CACHE_CONTROL, "no-store");
            headers.set(HttpHeaders.PRAGMA, "no-cache");
          }
          return Mono.empty();
        });
    return chain.filter(exchange);
  }

  /** The console's paths, whose security chain sets their page policy (ConsoleSecurity). */
  static boolean isConsole(String path) {
    return path.equals("/") || path.equals("/console") || path.startsWith("/console/");
  }

  /** Token minting ({@code POST .../tokens}) and refreshing answers carry a secret. */
  static boolean handsOutTokens(ServerWebExchange exchange) {
    String path = exchange.getRequest().getPath().value();
    return HttpMethod.POST.equals(exchange.getRequest().getMethod())
        && (path.endsWith("/tokens") || path.endsWith("/tokens/refresh"));
  }

  private static void setIfAbsent(HttpHeaders headers, String name, String value) {
    if (!headers.containsHeader(name)) {
      headers.set(name, value);
    }
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }
}
