package io.agentteams.gateway.console;

import io.agentteams.gateway.console.session.ConsoleAuthentication;
import io.agentteams.gateway.console.session.ConsoleSession;
import io.agentteams.gateway.console.session.OidcSignIn;
import io.agentteams.gateway.console.session.SessionCookies;
import io.agentteams.gateway.console.session.SessionCsrfTokens;
import io.agentteams.gateway.console.session.SessionSecurityContexts;
import io.agentteams.gateway.headers.ForwardedHeadersProperties;
import io.agentteams.gateway.identity.EdgeIdentityProperties;
import io.agentteams.platform.web.ProblemResponses;
import io.agentteams.platform.web.WebProblems;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.DefaultServerRedirectStrategy;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.ServerAuthenticationEntryPoint;
import org.springframework.security.web.server.authentication.logout.SecurityContextServerLogoutHandler;
import org.springframework.security.web.server.authorization.ServerAccessDeniedHandler;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedHandler;
import org.springframework.security.web.server.header.ReferrerPolicyServerHttpHeadersWriter;
import org.springframework.security.web.server.header.XFrameOptionsServerHttpHeadersWriter;
import org.springframework.security.web.server.savedrequest.NoOpServerRequestCache;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The console's security chain; it covers {@code /} and {@code /console/**} only, so the public API
 * keeps its bearer tokens and is untouched. Sessions live in signed cookies checked against the
 * server's session records ({@code SessionRecords}) on every request, every unsafe request needs
 * the session's CSRF token, and every response carries a Content-Security-Policy without inline
 * scripts or styles.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFluxSecurity
public class ConsoleSecurity {

  /**
   * A request the security firewall refuses (e.g. an encoded {@code ..} in its path) is answered
   * with Problem Details like every other error, not an empty 400. The firewall guards every path,
   * the API's included, though the console's chain matches only its own.
   */
  @Bean
  ServerExchangeRejectedHandler problemForRejectedRequests() {
    return (exchange, rejected) ->
        ProblemResponses.write(
            exchange,
            WebProblems.invalid(
                "invalid-request", "the request's path or headers are not accepted"));
  }

  @Bean
  @Order(Ordered.HIGHEST_PRECEDENCE)
  SecurityWebFilterChain consoleSecurityChain(
      ServerHttpSecurity http,
      SessionCookies cookies,
      SessionSecurityContexts contexts,
      SessionCsrfTokens csrf,
      ConsoleProperties console,
      EdgeIdentityProperties identity,
      ForwardedHeadersProperties forwarded) {
    OidcSignIn oidc = OidcSignIn.configured(identity, console);
    SecurityContextServerLogoutHandler forget = new SecurityContextServerLogoutHandler();
    forget.setSecurityContextRepository(contexts);
    http.securityMatcher(ServerWebExchangeMatchers.pathMatchers("/", "/console", "/console/**"))
        .securityContextRepository(contexts)
        .requestCache(cache -> cache.requestCache(NoOpServerRequestCache.getInstance()))
        .csrf(c -> c.csrfTokenRepository(csrf))
        .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
        .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
        .headers(
            headers ->
                headers
                    .contentSecurityPolicy(
                        policy -> policy.policyDirectives(contentSecurityPolicy(oidc)))
                    .referrerPolicy(
                        referrer ->
                            referrer.policy(
                                ReferrerPolicyServerHttpHeadersWriter.ReferrerPolicy.SAME_ORIGIN))
                    .frameOptions(
                        frames -> frames.mode(XFrameOptionsServerHttpHeadersWriter.Mode.DENY))
                    // Written only over TLS (directly or as a trusted proxy says).
                    .hsts(hsts -> hsts.maxAge(forwarded.hstsMaxAge()).includeSubdomains(true)))
        .exceptionHandling(
            errors ->
                errors.authenticationEntryPoint(signIn(cookies)).accessDeniedHandler(forbidden()))
        .authorizeExchange(
            rules ->
                rules
                    .pathMatchers("/", "/console", "/console/", "/console/assets/**")
                    .permitAll()
                    .pathMatchers("/console/signin", "/console/signin/**")
                    .permitAll()
                    .pathMatchers("/console/operator", "/console/operator/**")
                    .hasAuthority(ConsoleAuthentication.OPERATOR)
                    .anyExchange()
                    .authenticated())
        .logout(
            logout ->
                logout
                    .logoutUrl("/console/signout")
                    .logoutHandler(forget)
                    .logoutSuccessHandler(
                        (exchange, authentication) ->
                            (oidc == null
                                    ? Mono.just(URI.create("/console/signin?signed-out=1"))
                                    : oidc.signOutTarget(exchange, authentication))
                                .flatMap(
                                    target ->
                                        new DefaultServerRedirectStrategy()
                                            .sendRedirect(exchange.getExchange(), target))));
    if (oidc != null) {
      oidc.apply(http, cookies, contexts);
    }
    return http.build();
  }

  /**
   * Scripts, styles, images and connections from this origin only; no inline script or style, no
   * plugins, no framing; forms post here (or, to sign out, to the identity provider).
   */
  static String contentSecurityPolicy(@Nullable OidcSignIn oidc) {
    return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        + " font-src 'self'; connect-src 'self'; manifest-src 'self'; object-src 'none';"
        + " base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
        + (oidc == null ? "" : " " + oidc.providerOrigin());
  }

  /**
   * Pages redirect to sign-in; an htmx request is told to redirect the whole page instead of
   * swapping the sign-in page into a fragment; a stream is refused. A browser whose signed-in
   * session has ended (signed out elsewhere, expired) is told so on the sign-in page.
   */
  private static ServerAuthenticationEntryPoint signIn(SessionCookies cookies) {
    return (exchange, error) -> {
      String target =
          cookies.current(exchange).filter(ConsoleSession::signedIn).isPresent()
              ? "/console/signin?ended=1"
              : "/console/signin";
      if (exchange.getRequest().getHeaders().containsHeader("HX-Request")) {
        exchange.getResponse().setStatusCode(HttpStatus.UNAUTHORIZED);
        exchange.getResponse().getHeaders().set("HX-Redirect", target);
        return exchange.getResponse().setComplete();
      }
      if (exchange.getRequest().getHeaders().getAccept().contains(MediaType.TEXT_EVENT_STREAM)) {
        exchange.getResponse().setStatusCode(HttpStatus.UNAUTHORIZED);
        return exchange.getResponse().setComplete();
      }
      return new DefaultServerRedirectStrategy().sendRedirect(exchange, URI.create(target));
    };
  }

  /** Refusals (a missing or wrong CSRF token, a page for operators only) as a plain 403 page. */
  private static ServerAccessDeniedHandler forbidden() {
    return (exchange, denied) -> write(exchange, HttpStatus.FORBIDDEN, "You may not do this.");
  }

  private static Mono<Void> write(ServerWebExchange exchange, HttpStatus status, String text) {
    exchange.getResponse().setStatusCode(status);
    exchange.getResponse().getHeaders().setContentType(MediaType.TEXT_HTML);
    exchange.getResponse().getHeaders().set(HttpHeaders.CACHE_CONTROL, "no-store");
    String html =
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
            + status.value()
            + " · Agent Teams</title></head><body><main><h1>"
            + status.value()
            + " "
            + status.getReasonPhrase()
            + "</h1><p>"
            + text
            + "</p><p><a href=\"/console/teams\">Back to your teams</a></p></main></body></html>";
    return exchange
        .getResponse()
        .writeWith(
            Mono.just(
                exchange
                    .getResponse()
                    .bufferFactory()
                    .wrap(html.getBytes(StandardCharsets.UTF_8))));
  }
}
