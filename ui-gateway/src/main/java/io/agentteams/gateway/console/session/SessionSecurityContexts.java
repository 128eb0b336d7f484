package io.agentteams.gateway.console.session;

import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.gateway.identity.EdgeIdentityProperties;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.web.server.context.ServerSecurityContextRepository;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Keeps the console's security context in the signed session cookie, checked against the server's
 * record of it ({@link SessionRecords}): loading reads the cookie and admits it only while its
 * record says it is signed in and neither idle nor expired; saving after a sign-in starts a new
 * session (a new id, so a session fixed before sign-in is worthless) and records it before the
 * cookie is set; saving nothing (sign-out) ends the session's record on every replica and starts an
 * anonymous one.
 */
@Component
public class SessionSecurityContexts implements ServerSecurityContextRepository {

  private final SessionCookies cookies;
  private final SessionRecords records;
  private final ConsoleProperties properties;
  private final String ownerClaim;

  public SessionSecurityContexts(
      SessionCookies cookies,
      SessionRecords records,
      ConsoleProperties properties,
      EdgeIdentityProperties identity) {
    this.cookies = cookies;
    this.records = records;
    this.properties = properties;
    this.ownerClaim = identity.oidc().ownerClaim();
  }

  @Override
  public Mono<Void> save(ServerWebExchange exchange, @Nullable SecurityContext context) {
    return Mono.defer(
        () -> {
          Authentication authentication = context == null ? null : context.getAuthentication();
          if (authentication instanceof ConsoleAuthentication console) {
            return signIn(exchange, console.session());
          }
          if (authentication instanceof OAuth2AuthenticationToken token
              && token.getPrincipal() instanceof OidcUser user) {
            return signIn(
                exchange,
                cookies.signedIn(
                    user.getClaimAsString(ownerClaim), "oidc", user.getIdToken().getTokenValue()));
          }
          Mono<Void> ended =
              cookies
                  .current(exchange)
                  .filter(ConsoleSession::signedIn)
                  .map(records::end)
                  .orElse(Mono.empty());
          return ended.then(Mono.fromRunnable(() -> cookies.write(exchange, cookies.anonymous())));
        });
  }

  private Mono<Void> signIn(ServerWebExchange exchange, ConsoleSession session) {
    // Recorded first: a cookie is handed out only for a session every replica will know.
    return records.begin(session).then(Mono.fromRunnable(() -> cookies.write(exchange, session)));
  }

  @Override
  public Mono<SecurityContext> load(ServerWebExchange exchange) {
    return Mono.justOrEmpty(cookies.current(exchange))
        .filter(ConsoleSession::signedIn)
        .filter(records::admits)
        .map(
            session ->
                new SecurityContextImpl(
                    new ConsoleAuthentication(session, properties.isOperator(session.ownerId()))));
  }
}
