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
 * Keeps the console's security context in the signed session cookie instead of a server-side
 * session: loading reads the cookie; saving after a sign-in starts a new session (a new id, so a
 * session fixed before sign-in is worthless); saving nothing (sign-out) starts an anonymous one.
 */
@Component
public class SessionSecurityContexts implements ServerSecurityContextRepository {

  private final SessionCookies cookies;
  private final ConsoleProperties properties;
  private final String ownerClaim;

  public SessionSecurityContexts(
      SessionCookies cookies, ConsoleProperties properties, EdgeIdentityProperties identity) {
    this.cookies = cookies;
    this.properties = properties;
    this.ownerClaim = identity.oidc().ownerClaim();
  }

  @Override
  public Mono<Void> save(ServerWebExchange exchange, @Nullable SecurityContext context) {
    return Mono.fromRunnable(
        () -> {
          Authentication authentication = context == null ? null : context.getAuthentication();
          if (authentication instanceof ConsoleAuthentication console) {
            cookies.write(exchange, console.session());
          } else if (authentication instanceof OAuth2AuthenticationToken token
              && token.getPrincipal() instanceof OidcUser user) {
            cookies.write(
                exchange,
                cookies.signedIn(
                    user.getClaimAsString(ownerClaim), "oidc", user.getIdToken().getTokenValue()));
          } else {
            cookies.write(exchange, cookies.anonymous());
          }
        });
  }

  @Override
  public Mono<SecurityContext> load(ServerWebExchange exchange) {
    return Mono.justOrEmpty(cookies.current(exchange))
        .filter(ConsoleSession::signedIn)
        .map(
            session ->
                new SecurityContextImpl(
                    new ConsoleAuthentication(session, properties.isOperator(session.ownerId()))));
  }
}
