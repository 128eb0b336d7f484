package io.agentteams.gateway.identity;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoders;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Recognises the caller behind a bearer token: a token this system minted (owner in development,
 * member, worker), or else a JWT from the configured OpenID Connect provider, which names an owner.
 */
@Component
public class EdgeAuthenticator {

  private static final Logger log = LoggerFactory.getLogger(EdgeAuthenticator.class);

  private final EdgeTokens publicTokens;
  private final @Nullable ReactiveJwtDecoder oidc;
  private final String ownerClaim;

  public EdgeAuthenticator(EdgeTokens publicTokens, EdgeIdentityProperties properties) {
    this.publicTokens = publicTokens;
    this.oidc = properties.oidc().configured() ? decoder(properties.oidc()) : null;
    this.ownerClaim = properties.oidc().ownerClaim();
  }

  private static ReactiveJwtDecoder decoder(EdgeIdentityProperties.Oidc oidc) {
    NimbusReactiveJwtDecoder decoder;
    if (oidc.jwkSetUri() != null) {
      decoder = NimbusReactiveJwtDecoder.withJwkSetUri(oidc.jwkSetUri().toString()).build();
    } else {
      decoder =
          (NimbusReactiveJwtDecoder)
              ReactiveJwtDecoders.fromIssuerLocation(oidc.issuerUri().toString());
    }
    // Both are required (EdgeIdentityProperties.Oidc refuses to start without them).
    String audience = Objects.requireNonNull(oidc.audience());
    List<OAuth2TokenValidator<Jwt>> validators =
        List.of(
            JwtValidators.createDefaultWithIssuer(
                Objects.requireNonNull(oidc.issuerUri()).toString()),
            new JwtClaimValidator<List<String>>(
                "aud", aud -> aud != null && aud.contains(audience)));
    decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(validators));
    return decoder;
  }

  /** The caller, or an UNAUTHENTICATED problem. */
  public Mono<Caller> authenticate(@Nullable String bearer) {
    ProblemException notOurs;
    try {
      return Mono.just(publicTokens.verify(bearer));
    } catch (ProblemException problem) {
      notOurs = problem;
    }
    // A token of ours its owner revoked is refused as such, not handed to the identity provider.
    if (oidc == null
        || bearer == null
        || bearer.isBlank()
        || EdgeTokens.REVOKED.equals(notOurs.code())) {
      return Mono.error(notOurs);
    }
    return oidc.decode(bearer)
        .<Caller>map(
            jwt -> {
              String owner = jwt.getClaimAsString(ownerClaim);
              if (owner == null || owner.isBlank()) {
                throw unauthenticated("the identity token names no " + ownerClaim);
              }
              return new Caller.Owner(owner);
            })
        .onErrorMap(
            error -> !(error instanceof ProblemException),
            error -> {
              log.debug("identity token refused: {}", error.toString());
              return unauthenticated("identity token refused");
            });
  }

  private static ProblemException unauthenticated(String why) {
    return new ProblemException(
        ProblemException.Kind.UNAUTHENTICATED, "unauthenticated", "not authenticated: " + why);
  }
}
