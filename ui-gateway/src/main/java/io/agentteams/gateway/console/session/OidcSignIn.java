package io.agentteams.gateway.console.session;

import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.gateway.identity.EdgeIdentityProperties;
import java.net.URI;
import java.time.Duration;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.endpoint.WebClientReactiveAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.oidc.authentication.OidcAuthorizationCodeReactiveAuthenticationManager;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcReactiveOAuth2UserService;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcUserRequest;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;
import org.springframework.security.oauth2.client.registration.ReactiveClientRegistrationRepository;
import org.springframework.security.oauth2.client.userinfo.ReactiveOAuth2UserService;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestCustomizers;
import org.springframework.security.oauth2.client.web.server.DefaultServerOAuth2AuthorizationRequestResolver;
import org.springframework.security.oauth2.client.web.server.ServerOAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.web.server.WebFilterExchange;
import org.springframework.security.web.server.authentication.RedirectServerAuthenticationFailureHandler;
import org.springframework.security.web.server.authentication.RedirectServerAuthenticationSuccessHandler;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Sign-in with the OpenID Connect provider that also issues the API's JWTs: the authorization code
 * flow with PKCE (S256) and a nonce, started at {@code /console/signin/oidc/oidc} and returning to
 * {@code /console/signin/callback}; the owner is the ID token's owner claim. The provider's
 * metadata is read on the first sign-in, not at start-up, so the gateway starts while the provider
 * is down. Sign-out ends the provider's session too when it offers an {@code end_session_endpoint}.
 */
public final class OidcSignIn {

  /** The one registration's id, also the last segment of the sign-in path. */
  public static final String REGISTRATION = "oidc";

  private static final Pattern OWNER = Pattern.compile("[\\p{Graph}]{1,200}");

  private final URI issuer;
  private final ConsoleProperties.Oidc client;
  private final String ownerClaim;
  private final Mono<ClientRegistration> registration;

  private OidcSignIn(URI issuer, ConsoleProperties.Oidc client, String ownerClaim) {
    this.issuer = issuer;
    this.client = client;
    this.ownerClaim = ownerClaim;
    this.registration =
        Mono.fromCallable(this::discover)
            .subscribeOn(Schedulers.boundedElastic())
            // Kept once read; a provider that was down is asked again at the next sign-in.
            .cache(value -> Duration.ofDays(36500), error -> Duration.ZERO, () -> Duration.ZERO);
  }

  /** The OIDC sign-in, when both the issuer and the console's client id are configured. */
  public static @Nullable OidcSignIn configured(
      EdgeIdentityProperties identity, ConsoleProperties console) {
    URI issuer = identity.oidc().issuerUri();
    if (issuer == null || console.oidc().clientId() == null) {
      return null;
    }
    return new OidcSignIn(issuer, console.oidc(), identity.oidc().ownerClaim());
  }

  /** The provider's origin, which forms may be sent to when signing out there. */
  public String providerOrigin() {
    return issuer.getScheme() + "://" + issuer.getRawAuthority();
  }

  private ClientRegistration discover() {
    return ClientRegistrations.fromIssuerLocation(issuer.toString())
        .registrationId(REGISTRATION)
        .clientId(client.clientId())
        .clientSecret(client.clientSecret() == null ? "" : client.clientSecret())
        .clientAuthenticationMethod(
            client.clientSecret() == null
                ? ClientAuthenticationMethod.NONE
                : ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
        .scope(client.scopes())
        .redirectUri("{baseUrl}" + CookieAuthorizationRequests.CALLBACK)
        .userNameAttributeName(ownerClaim)
        .build();
  }

  /** Adds the sign-in to the console's security chain. */
  public void apply(
      ServerHttpSecurity http, SessionCookies cookies, SessionSecurityContexts contexts) {
    ReactiveClientRegistrationRepository registrations =
        id -> REGISTRATION.equals(id) ? registration : Mono.empty();
    DefaultServerOAuth2AuthorizationRequestResolver resolver =
        new DefaultServerOAuth2AuthorizationRequestResolver(
            registrations,
            ServerWebExchangeMatchers.pathMatchers(
                CookieAuthorizationRequests.PATH + "/{registrationId}"));
    resolver.setAuthorizationRequestCustomizer(OAuth2AuthorizationRequestCustomizers.withPkce());
    http.oauth2Login(
        login ->
            login
                .clientRegistrationRepository(registrations)
                .authorizationRequestResolver(resolver)
                .authorizationRequestRepository(new CookieAuthorizationRequests(cookies))
                .authorizedClientRepository(new NoAuthorizedClients())
                .authenticationManager(
                    new OidcAuthorizationCodeReactiveAuthenticationManager(
                        new WebClientReactiveAuthorizationCodeTokenResponseClient(), users()))
                .authenticationMatcher(
                    ServerWebExchangeMatchers.pathMatchers(CookieAuthorizationRequests.CALLBACK))
                .securityContextRepository(contexts)
                .authenticationSuccessHandler(
                    new RedirectServerAuthenticationSuccessHandler("/console/teams"))
                .authenticationFailureHandler(
                    new RedirectServerAuthenticationFailureHandler(
                        "/console/signin?error=provider")));
  }

  /** The provider's user service, refusing an ID token that names no usable owner. */
  private ReactiveOAuth2UserService<OidcUserRequest, OidcUser> users() {
    OidcReactiveOAuth2UserService delegate = new OidcReactiveOAuth2UserService();
    return request ->
        delegate
            .loadUser(request)
            .map(
                user -> {
                  String owner = user.getClaimAsString(ownerClaim);
                  if (owner == null || !OWNER.matcher(owner).matches()) {
                    throw new OAuth2AuthenticationException(
                        new OAuth2Error(
                            "invalid_owner", "the ID token names no usable " + ownerClaim, null));
                  }
                  return user;
                });
  }

  /**
   * Where to send a person who signs out: the provider's end-session endpoint (with the ID token as
   * a hint and the console's sign-in page to return to) when it has one.
   */
  public Mono<URI> signOutTarget(WebFilterExchange exchange, @Nullable Authentication signedOut) {
    URI back =
        UriComponentsBuilder.fromUri(exchange.getExchange().getRequest().getURI())
            .replacePath("/console/signin")
            .replaceQuery("signed-out=1")
            .build()
            .toUri();
    if (!(signedOut instanceof ConsoleAuthentication console)
        || !"oidc".equals(console.session().provider())) {
      return Mono.just(URI.create("/console/signin?signed-out=1"));
    }
    return registration
        .map(
            r -> {
              Object endSession =
                  r.getProviderDetails().getConfigurationMetadata().get("end_session_endpoint");
              if (endSession == null) {
                return URI.create("/console/signin?signed-out=1");
              }
              UriComponentsBuilder target =
                  UriComponentsBuilder.fromUriString(endSession.toString())
                      .queryParam("client_id", r.getClientId())
                      .queryParam("post_logout_redirect_uri", back.toString());
              if (console.session().idToken() != null) {
                target.queryParam("id_token_hint", console.session().idToken());
              }
              return target.encode().build().toUri();
            })
        .onErrorReturn(URI.create("/console/signin?signed-out=1"));
  }

  /** The console needs no access tokens after sign-in: it acts through the gateway itself. */
  private static final class NoAuthorizedClients implements ServerOAuth2AuthorizedClientRepository {

    @Override
    public <T extends OAuth2AuthorizedClient> Mono<T> loadAuthorizedClient(
        String registrationId, Authentication principal, ServerWebExchange exchange) {
      return Mono.empty();
    }

    @Override
    public Mono<Void> saveAuthorizedClient(
        OAuth2AuthorizedClient client, Authentication principal, ServerWebExchange exchange) {
      return Mono.empty();
    }

    @Override
    public Mono<Void> removeAuthorizedClient(
        String registrationId, Authentication principal, ServerWebExchange exchange) {
      return Mono.empty();
    }
  }
}
