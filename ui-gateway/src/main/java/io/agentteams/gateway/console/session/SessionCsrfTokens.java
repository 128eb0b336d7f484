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
 * and sign-out) has a new token. A signed-in session's token counts only while the server's record
 * admits the session ({@link SessionRecords}): after sign-out, sign-out everywhere or expiry, a
 * copied cookie and its token are refused together. Pages send it in the {@code X-CSRF-TOKEN}
 * header (htmx and the console's modules) or the {@code _csrf} form field.
 */
@Component
public class SessionCsrfTokens implements ServerCsrfTokenRepository {

  /** The header that carries the token. */
  public static final String HEADER = "X-CSRF-TOKEN";

  /** The form field that carries the token. */
  public static final String PARAMETER = "_csrf";

  private final SessionCookies cookies;
  private final SessionRecords records;

  public SessionCsrfTokens(SessionCookies cookies, SessionRecords records) {
    this.cookies = cookies;
    this.records = records;
  }

  @Override
  public Mono<CsrfToken> generateToken(ServerWebExchange exchange) {
    // A session that has ended is replaced by an anonymous one, so its person can sign in again.
    return Mono.fromSupplier(
        () ->
            token(
                cookies
                    .current(exchange)
                    .filter(this::usable)
                    .orElseGet(() -> cookies.write(exchange, cookies.anonymous()))));
  }

  @Override
  public Mono<Void> saveToken(ServerWebExchange exchange, @Nullable CsrfToken token) {
    // Derived from the session, so there is nothing to store.
    return Mono.empty();
  }

  @Override
  public Mono<CsrfToken> loadToken(ServerWebExchange exchange) {
    return Mono.justOrEmpty(cookies.current(exchange)).filter(this::usable).map(this::token);
  }

  private boolean usable(ConsoleSession session) {
    return !session.signedIn() || records.admits(session);
  }

  private CsrfToken token(ConsoleSession session) {
    return new DefaultCsrfToken(HEADER, PARAMETER, cookies.csrfToken(session));
  }
}
