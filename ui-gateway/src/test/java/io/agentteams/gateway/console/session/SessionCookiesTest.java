package io.agentteams.gateway.console.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.agentteams.gateway.console.ConsoleProperties;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class SessionCookiesTest {

  private static final ConsoleProperties PROPERTIES =
      new ConsoleProperties(
          "test-only-console-session-secret-0123456789",
          Duration.ofHours(1),
          List.of(),
          null,
          new ConsoleProperties.Operator("/actuator/prometheus", Map.of()),
          new ConsoleProperties.Oidc(null, null, List.of("openid")),
          new ConsoleProperties.Limits(
              80, 160, 2000, 4000, 2, 8, 20, 40, 4000, 8000, 4000, 8000, 8000, 80, 160, 2000, 4000,
              80, 160, 1000, 2000));

  private final Clock clock = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);
  private final SessionCookies cookies = new SessionCookies(PROPERTIES, clock);

  @Test
  void overTlsTheSessionCookieIsHostPrefixedSecureHttpOnlyAndLax() {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(
            MockServerHttpRequest.get("https://console.example/console/teams"));
    cookies.write(exchange, cookies.signedIn("alice", "oidc", "id-token"));
    ResponseCookie cookie =
        exchange.getResponse().getCookies().getFirst("__Host-agentteams-console");
    assertThat(cookie).isNotNull();
    assertThat(cookie.isSecure()).isTrue();
    assertThat(cookie.isHttpOnly()).isTrue();
    assertThat(cookie.getSameSite()).isEqualTo("Lax");
    assertThat(cookie.getPath()).isEqualTo("/");
  }

  @Test
  void withoutTlsTheCookieHasNoPrefixAndIsNotSecure() {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(MockServerHttpRequest.get("http://127.0.0.1/console/teams"));
    cookies.write(exchange, cookies.anonymous());
    ResponseCookie cookie = exchange.getResponse().getCookies().getFirst("agentteams-console");
    assertThat(cookie).isNotNull();
    assertThat(cookie.isSecure()).isFalse();
    assertThat(cookie.isHttpOnly()).isTrue();
  }

  @Test
  void aSessionReadsBackOnlyWhileItsSignatureAndExpiryHold() {
    ConsoleSession session = cookies.signedIn("alice", "dev", null);
    String value = written(session);
    assertThat(read(value, cookies))
        .hasValueSatisfying(s -> assertThat(s.ownerId()).isEqualTo("alice"));
    assertThat(read(value.substring(0, value.length() - 2) + "xx", cookies)).isEmpty();
    SessionCookies otherKey =
        new SessionCookies(
            new ConsoleProperties(
                "another-test-only-console-session-secret-0123",
                Duration.ofHours(1),
                List.of(),
                null,
                PROPERTIES.operator(),
                PROPERTIES.oidc(),
                PROPERTIES.limits()),
            clock);
    assertThat(read(value, otherKey)).isEmpty();
    SessionCookies later = new SessionCookies(PROPERTIES, Clock.offset(clock, Duration.ofHours(2)));
    assertThat(read(value, later)).isEmpty();
  }

  @Test
  void aCookieSignedBeforeTheTokenServiceStillReadsBack() throws Exception {
    // As the gateway signed sessions before: HS256 of the secret, no key id, type, id or issuer.
    SignedJWT old =
        new SignedJWT(
            new JWSHeader(JWSAlgorithm.HS256),
            new JWTClaimsSet.Builder()
                .claim("sid", "session-1")
                .subject("alice")
                .claim("idp", "dev")
                .expirationTime(Date.from(clock.instant().plus(Duration.ofMinutes(30))))
                .build());
    old.sign(new MACSigner(PROPERTIES.sessionSecret().getBytes(StandardCharsets.UTF_8)));

    assertThat(read(old.serialize(), cookies))
        .hasValueSatisfying(
            s -> {
              assertThat(s.id()).isEqualTo("session-1");
              assertThat(s.ownerId()).isEqualTo("alice");
              assertThat(s.provider()).isEqualTo("dev");
            });
  }

  @Test
  void aCookieSignedWithAnotherAlgorithmOrNoneIsNoSession() throws Exception {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .claim("sid", "session-1")
            .subject("mallory")
            .expirationTime(Date.from(clock.instant().plus(Duration.ofMinutes(30))))
            .build();
    SignedJWT hs512 = new SignedJWT(new JWSHeader(JWSAlgorithm.HS512), claims);
    hs512.sign(
        new MACSigner(PROPERTIES.sessionSecret().repeat(2).getBytes(StandardCharsets.UTF_8)));
    assertThat(read(hs512.serialize(), cookies)).isEmpty();
    assertThat(read(new PlainJWT(claims).serialize(), cookies)).isEmpty();
  }

  @Test
  void csrfTokensAreBoundToTheSessionId() {
    ConsoleSession one = cookies.signedIn("alice", "dev", null);
    ConsoleSession two = cookies.signedIn("alice", "dev", null);
    assertThat(cookies.csrfToken(one))
        .isEqualTo(cookies.csrfToken(one))
        .isNotEqualTo(cookies.csrfToken(two));
  }

  private String written(ConsoleSession session) {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(MockServerHttpRequest.get("http://127.0.0.1/console"));
    cookies.write(exchange, session);
    return exchange.getResponse().getCookies().getFirst("agentteams-console").getValue();
  }

  private static Optional<ConsoleSession> read(String value, SessionCookies reader) {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(
            MockServerHttpRequest.get("http://127.0.0.1/console")
                .cookie(new HttpCookie("agentteams-console", value)));
    return reader.current(exchange);
  }
}
