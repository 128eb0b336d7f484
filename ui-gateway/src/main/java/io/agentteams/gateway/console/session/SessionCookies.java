package io.agentteams.gateway.console.session;

import com.nimbusds.jwt.JWTClaimsSet;
import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.platform.token.SignedTokens;
import io.agentteams.platform.token.TokenFormat;
import io.agentteams.platform.token.TokenRefused;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * Reads and writes signed cookies: the console session, and the short-lived state of an OpenID
 * Connect sign-in in flight, each an HS256 token of the console's secret (the platform's token
 * service signs and checks them: no issuer, audience or key id, as only the gateway reads them
 * back). Cookies are HttpOnly, SameSite=Lax, and Secure (with the {@code __Host-} prefix) when the
 * console is served over TLS. Nothing is kept in the gateway's memory, so any replica serves any
 * request.
 */
@Component
public class SessionCookies {

  private static final Logger log = LoggerFactory.getLogger(SessionCookies.class);
  private static final String SESSION = "agentteams-console";
  private static final String CURRENT = SessionCookies.class.getName() + ".current";
  private static final int MAX_COOKIE_BYTES = 3800;

  private final byte[] key;
  private final SignedTokens tokens;
  private final Duration ttl;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public SessionCookies(ConsoleProperties properties, Clock clock) {
    if (properties.sessionSecret() != null) {
      key = properties.sessionSecret().getBytes(StandardCharsets.UTF_8);
    } else {
      key = new byte[32];
      random.nextBytes(key);
      log.warn(
          "agentteams.gateway.console.session-secret is not set: console sessions are signed with"
              + " a key of this process only; they end when it stops and no other replica accepts"
              + " them");
    }
    try {
      tokens = SignedTokens.hs256(key, TokenFormat.unaddressed(), clock);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unusable console session secret", e);
    }
    this.ttl = properties.sessionTtl();
    this.clock = clock;
  }

  /** The session the request carries (or that this exchange has just started), if valid. */
  public Optional<ConsoleSession> current(ServerWebExchange exchange) {
    ConsoleSession known = exchange.getAttribute(CURRENT);
    if (known != null) {
      return Optional.of(known);
    }
    HttpCookie cookie = exchange.getRequest().getCookies().getFirst(cookieName(exchange, SESSION));
    if (cookie == null) {
      return Optional.empty();
    }
    Optional<ConsoleSession> session = readSession(cookie.getValue());
    session.ifPresent(s -> exchange.getAttributes().put(CURRENT, s));
    return session;
  }

  /** The current session, or a new anonymous one written to the response. */
  public ConsoleSession currentOrAnonymous(ServerWebExchange exchange) {
    return current(exchange).orElseGet(() -> write(exchange, anonymous()));
  }

  /** A new session for someone who just signed in. */
  public ConsoleSession signedIn(String ownerId, String provider, @Nullable String idToken) {
    return new ConsoleSession(newId(), ownerId, provider, idToken, clock.instant().plus(ttl));
  }

  /** A new session for nobody in particular (before sign-in, after sign-out). */
  public ConsoleSession anonymous() {
    return new ConsoleSession(newId(), null, null, null, clock.instant().plus(ttl));
  }

  /** Sets the session's cookie on the response; later reads in this exchange see it. */
  public ConsoleSession write(ServerWebExchange exchange, ConsoleSession session) {
    String value = sign(session, true);
    if (value.length() > MAX_COOKIE_BYTES) {
      // A very large ID token does not fit; sign-out at the provider then goes without its hint.
      value = sign(session, false);
    }
    exchange.getAttributes().put(CURRENT, session);
    exchange
        .getResponse()
        .addCookie(
            cookie(exchange, SESSION, value, Duration.between(clock.instant(), session.expiresAt()))
                .path("/")
                .build());
    return session;
  }

  /** The CSRF token of a session: derived from its id, so it needs no storage. */
  public String csrfToken(ConsoleSession session) {
    return mac("csrf|" + session.id());
  }

  /** Signs short-lived state (an OIDC sign-in in flight) into a cookie limited to {@code path}. */
  public void writeState(
      ServerWebExchange exchange,
      String name,
      String path,
      Map<String, Object> claims,
      Duration ttl) {
    JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder();
    claims.forEach(builder::claim);
    exchange
        .getResponse()
        .addCookie(
            cookie(exchange, name, sign(builder, clock.instant().plus(ttl)), ttl)
                .path(path)
                .build());
  }

  /** Reads state written by {@link #writeState}, if present, authentic and not expired. */
  public Optional<JWTClaimsSet> readState(ServerWebExchange exchange, String name) {
    HttpCookie cookie = exchange.getRequest().getCookies().getFirst(cookieName(exchange, name));
    return cookie == null ? Optional.empty() : verify(cookie.getValue());
  }

  /** Removes a state cookie. */
  public void clearState(ServerWebExchange exchange, String name, String path) {
    exchange.getResponse().addCookie(cookie(exchange, name, "", Duration.ZERO).path(path).build());
  }

  /** Whether the console is served over TLS here (directly or as the forwarded scheme says). */
  public static boolean secure(ServerWebExchange exchange) {
    return "https".equalsIgnoreCase(exchange.getRequest().getURI().getScheme());
  }

  private static String cookieName(ServerWebExchange exchange, String name) {
    // The __Host- prefix pins a cookie to this host and path "/" and requires Secure: no
    // subdomain can plant one. Browsers accept it only over TLS.
    return secure(exchange) && SESSION.equals(name) ? "__Host-" + name : name;
  }

  private ResponseCookie.ResponseCookieBuilder cookie(
      ServerWebExchange exchange, String name, String value, Duration maxAge) {
    return ResponseCookie.from(cookieName(exchange, name), value)
        .httpOnly(true)
        .secure(secure(exchange))
        .sameSite("Lax")
        .maxAge(maxAge.isNegative() ? Duration.ZERO : maxAge);
  }

  private Optional<ConsoleSession> readSession(String value) {
    return verify(value)
        .flatMap(
            claims -> {
              try {
                String id = claims.getStringClaim("sid");
                if (id == null || claims.getExpirationTime() == null) {
                  return Optional.empty();
                }
                return Optional.of(
                    new ConsoleSession(
                        id,
                        claims.getSubject(),
                        claims.getStringClaim("idp"),
                        claims.getStringClaim("idt"),
                        claims.getExpirationTime().toInstant()));
              } catch (ParseException e) {
                return Optional.empty();
              }
            });
  }

  private Optional<JWTClaimsSet> verify(String value) {
    try {
      return Optional.of(tokens.verify(value));
    } catch (TokenRefused refused) {
      return Optional.empty();
    }
  }

  private String sign(ConsoleSession session, boolean withIdToken) {
    JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().claim("sid", session.id());
    if (session.ownerId() != null) {
      claims.subject(session.ownerId()).claim("idp", session.provider());
    }
    if (withIdToken && session.idToken() != null) {
      claims.claim("idt", session.idToken());
    }
    return sign(claims, session.expiresAt());
  }

  private String sign(JWTClaimsSet.Builder claims, Instant expiresAt) {
    return tokens.mint(claims, expiresAt).token();
  }

  private String newId() {
    byte[] id = new byte[24];
    random.nextBytes(id);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(id);
  }

  private String mac(String value) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(mac.doFinal(value.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException(e);
    }
  }
}
