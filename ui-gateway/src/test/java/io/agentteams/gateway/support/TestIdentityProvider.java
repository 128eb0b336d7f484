package io.agentteams.gateway.support;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** An OpenID Connect provider stand-in: serves its signing keys on loopback and signs JWTs. */
public final class TestIdentityProvider implements AutoCloseable {

  public static final String ISSUER = "https://idp.example.test";

  private final RSAKey key;
  private final DisposableServer server;

  public TestIdentityProvider() {
    try {
      key = new RSAKeyGenerator(2048).keyID("test-key").generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    String jwks = new JWKSet(key.toPublicJWK()).toString();
    server =
        HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .route(
                routes ->
                    routes.get(
                        "/jwks",
                        (request, response) ->
                            response
                                .header("Content-Type", "application/json")
                                .sendString(Mono.just(jwks), StandardCharsets.UTF_8)))
            .bindNow();
  }

  public String jwkSetUri() {
    return "http://127.0.0.1:" + server.port() + "/jwks";
  }

  /** A JWT for the subject from this provider, valid for the given seconds (negative: expired). */
  public String token(String subject, String audience, long validSeconds) {
    return sign(key, subject, audience, validSeconds);
  }

  /** A JWT signed with a key this provider never published. */
  public static String forged(String subject, String audience) {
    try {
      return sign(new RSAKeyGenerator(2048).keyID("test-key").generate(), subject, audience, 300);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sign(RSAKey key, String subject, String audience, long validSeconds) {
    Instant now = Instant.now();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(ISSUER)
            .subject(subject)
            .audience(audience)
            .issueTime(Date.from(now.minusSeconds(5)))
            .expirationTime(Date.from(now.plusSeconds(validSeconds)))
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
    try {
      jwt.sign(new RSASSASigner(key));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  @Override
  public void close() {
    server.disposeNow();
  }
}
