package io.agentteams.gateway.console.session;

import com.nimbusds.jwt.JWTClaimsSet;
import java.text.ParseException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.client.web.server.ServerAuthorizationRequestRepository;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Keeps an OpenID Connect sign-in in flight (state, nonce, PKCE code verifier) in a signed,
 * HttpOnly cookie scoped to the sign-in paths, for five minutes, instead of a server-side session:
 * the provider's redirect back may reach any gateway replica.
 */
final class CookieAuthorizationRequests
    implements ServerAuthorizationRequestRepository<OAuth2AuthorizationRequest> {

  static final String COOKIE = "agentteams-console-signin";

  /** Where a sign-in starts: this path, then the registration's id. */
  static final String PATH = "/console/signin/oidc";

  /** Where the provider sends the person back. */
  static final String CALLBACK = "/console/signin/callback";

  /** The cookie covers both. */
  private static final String COOKIE_PATH = "/console/signin";

  private static final Duration TTL = Duration.ofMinutes(5);

  private final SessionCookies cookies;

  CookieAuthorizationRequests(SessionCookies cookies) {
    this.cookies = cookies;
  }

  @Override
  public Mono<Void> saveAuthorizationRequest(
      @Nullable OAuth2AuthorizationRequest request, ServerWebExchange exchange) {
    return Mono.fromRunnable(
        () -> {
          if (request == null) {
            cookies.clearState(exchange, COOKIE, COOKIE_PATH);
            return;
          }
          Map<String, Object> claims = new LinkedHashMap<>();
          claims.put("authorization_uri", request.getAuthorizationUri());
          claims.put("client_id", request.getClientId());
          claims.put("redirect_uri", request.getRedirectUri());
          claims.put("scopes", List.copyOf(request.getScopes()));
          claims.put("state", request.getState());
          claims.put("parameters", strings(request.getAdditionalParameters()));
          claims.put("attributes", strings(request.getAttributes()));
          claims.put("request_uri", request.getAuthorizationRequestUri());
          cookies.writeState(exchange, COOKIE, COOKIE_PATH, claims, TTL);
        });
  }

  @Override
  public Mono<OAuth2AuthorizationRequest> loadAuthorizationRequest(ServerWebExchange exchange) {
    return Mono.justOrEmpty(read(exchange));
  }

  @Override
  public Mono<OAuth2AuthorizationRequest> removeAuthorizationRequest(ServerWebExchange exchange) {
    return Mono.justOrEmpty(read(exchange))
        .doOnNext(request -> cookies.clearState(exchange, COOKIE, COOKIE_PATH));
  }

  /** The request in flight, only if the provider's redirect carries its state. */
  private Optional<OAuth2AuthorizationRequest> read(ServerWebExchange exchange) {
    String state = exchange.getRequest().getQueryParams().getFirst(OAuth2ParameterNames.STATE);
    if (state == null) {
      return Optional.empty();
    }
    return cookies
        .readState(exchange, COOKIE)
        .flatMap(claims -> parse(claims))
        .filter(request -> state.equals(request.getState()));
  }

  private static Optional<OAuth2AuthorizationRequest> parse(JWTClaimsSet claims) {
    try {
      return Optional.of(
          OAuth2AuthorizationRequest.authorizationCode()
              .authorizationUri(claims.getStringClaim("authorization_uri"))
              .clientId(claims.getStringClaim("client_id"))
              .redirectUri(claims.getStringClaim("redirect_uri"))
              .scopes(Set.copyOf(claims.getStringListClaim("scopes")))
              .state(claims.getStringClaim("state"))
              .additionalParameters(objects(claims.getJSONObjectClaim("parameters")))
              .attributes(objects(claims.getJSONObjectClaim("attributes")))
              .authorizationRequestUri(claims.getStringClaim("request_uri"))
              .build());
    } catch (ParseException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Map<String, String> strings(Map<String, Object> values) {
    Map<String, String> strings = new LinkedHashMap<>();
    values.forEach((key, value) -> strings.put(key, String.valueOf(value)));
    return strings;
  }

  private static Map<String, Object> objects(@Nullable Map<String, Object> values) {
    return values == null ? Map.of() : new LinkedHashMap<>(values);
  }
}
