package io.agentteams.gateway.console.session;

import org.jspecify.annotations.Nullable;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.security.web.server.csrf.DefaultCsrfToken;
import org.springframework.security.web.server.csrf.ServerCsrfTokenRepository;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * CSRF tokens bound to the session: an HMAC of the session's id under the session key. A request
 * passes only with the token of the very session its cookie carries, and a new session (at sign-in
 * and sign-out) has a new token. Pages send it in the {@code X-CSRF-TOKEN} header (htmx and the
 * console's modules) or the {@code _csrf} form field.
 */
@Component
public class SessionCsrfTokens implements ServerCsrfTokenRepository {

  /** The header that carries the token. */
  public static final String HEADER = "X-CSRF-TOKEN";

  /** The form field that carries the token. */
  public static final String PARAMETER = "_csrf";

  private final SessionCookies cookies;

  public SessionCsrfTokens(SessionCookies cookies) {
    this.cookies = cookies;
  }

  @Override
  public Mono<CsrfToken> generateToken(ServerWebExchange exchange) {
    return Mono.fromSupplier(() -> token(cookies.currentOrAnonymous(exchange)));
  }

  @Override
  public Mono<Void> saveToken(ServerWebExchange exchange, @Nullable CsrfToken token) {
    // Derived from the session, so there is nothing to store.
    return Mono.empty();
  }

  @Override
  public Mono<CsrfToken> loadToken(ServerWebExchange exchange) {
    return Mono.justOrEmpty(cookies.current(exchange)).map(this::token);
  }

  private CsrfToken token(ConsoleSession session) {
    return new DefaultCsrfToken(HEADER, PARAMETER, cookies.csrfToken(session));
  }
}
