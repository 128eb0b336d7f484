package io.agentteams.platform.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.agentteams.platform.problem.ProblemException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Internal caller tokens: the short-lived JWTs the gateway signs (ES256, with the signing key's
 * {@code kid}) for each call it makes to a service on a caller's behalf, and every service verifies
 * with the gateway's public keys. A service holds only public keys, so it can verify but never mint
 * a token another service would accept.
 *
 * <p>Signing and verifying P-256 signatures is the most expensive step of a call (on a JVM limited
 * to its first compiler, as the embedded stack runs, most of a read's processor time went to it).
 * So the gateway reuses a caller's token while it has at least half its life left ({@link
 * #reusable}), and a service remembers the tokens it verified, by their exact text, until they
 * expire: a caller's calls within a minute cost one signature and one verification per service.
 * Both memories are bounded ({@value #REMEMBERED} tokens); a token that expired is never taken from
 * them.
 */
public final class CallerTokens {

  /** The JOSE type of internal tokens, so that no other kind of JWT passes for one. */
  public static final JOSEObjectType TYPE = new JOSEObjectType("agent-teams-internal+jwt");

  /**
   * The JOSE type of the job-scoped member tokens the scheduler signs with its own dispatch key:
   * the gateway accepts them only as a member within one job, and no service accepts them at all.
   */
  public static final JOSEObjectType JOB_MEMBER_TYPE =
      new JOSEObjectType("agent-teams-job-member+jwt");

  private static final Duration CLOCK_SKEW = Duration.ofSeconds(30);

  /** How many issued and how many verified tokens are remembered (each a few hundred bytes). */
  static final int REMEMBERED = 10_000;

  private final @Nullable ECKey signingKey;
  private final @Nullable ECDSASigner signer;
  private final Map<String, ECDSAVerifier> verifiers;
  private final JOSEObjectType type;
  private final String issuer;
  private final List<String> audiences;
  private final Clock clock;
  private final Cache<Reuse, Issued> issued = Caffeine.newBuilder().maximumSize(REMEMBERED).build();
  private final Cache<String, Verified> verified =
      Caffeine.newBuilder().maximumSize(REMEMBERED).build();

  /** A token asked for again: the same caller and lifetime. */
  private record Reuse(Caller caller, Duration ttl) {}

  /** A token issued here and when it expires. */
  private record Issued(String token, Instant expiry) {}

  /** The caller a token was verified to name, and when the token expires. */
  private record Verified(Caller caller, Instant expiry) {}

  private CallerTokens(
      @Nullable ECKey signingKey,
      List<ECKey> verificationKeys,
      JOSEObjectType type,
      String issuer,
      List<String> audiences,
      Clock clock) {
    if (audiences.isEmpty()) {
      throw new IllegalArgumentException("no audience");
    }
    this.signingKey = signingKey;
    this.type = type;
    this.issuer = issuer;
    this.audiences = List.copyOf(audiences);
    this.clock = clock;
    try {
      this.signer = signingKey == null ? null : new ECDSASigner(signingKey);
      Map<String, ECDSAVerifier> byId = new HashMap<>();
      for (ECKey key : verificationKeys) {
        byId.put(key.getKeyID(), new ECDSAVerifier(key.toPublicJWK()));
      }
      this.verifiers = Map.copyOf(byId);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unusable internal token key", e);
    }
  }

  /**
   * Tokens the gateway signs with the first of its signing keys. It also verifies with every one of
   * them, which only tests need.
   */
  public static CallerTokens signing(
      List<ECKey> signingKeys, String issuer, String audience, Clock clock) {
    return signing(signingKeys, TYPE, issuer, audience, clock);
  }

  /** Tokens of the given JOSE type, signed with the first of the keys. */
  public static CallerTokens signing(
      List<ECKey> signingKeys, JOSEObjectType type, String issuer, String audience, Clock clock) {
    if (signingKeys.isEmpty()) {
      throw new IllegalArgumentException("no signing key");
    }
    return new CallerTokens(
        signingKeys.get(0), signingKeys, type, issuer, List.of(audience), clock);
  }

  /**
   * TEST ONLY: tokens for every one of {@code audiences} at once, which no gateway ever signs (it
   * signs each for the one service it calls), for tests that call services directly.
   */
  public static CallerTokens signingForEvery(
      List<ECKey> signingKeys, String issuer, List<String> audiences, Clock clock) {
    if (signingKeys.isEmpty()) {
      throw new IllegalArgumentException("no signing key");
    }
    return new CallerTokens(signingKeys.get(0), signingKeys, TYPE, issuer, audiences, clock);
  }

  /** Tokens a service verifies with the gateway's public keys; it cannot sign any. */
  public static CallerTokens verifying(
      JWKSet verificationKeys, String issuer, String audience, Clock clock) {
    return verifying(verificationKeys, TYPE, issuer, audience, clock);
  }

  /** Tokens of the given JOSE type verified with public keys only. */
  public static CallerTokens verifying(
      JWKSet verificationKeys, JOSEObjectType type, String issuer, String audience, Clock clock) {
    List<ECKey> keys = new ArrayList<>();
    for (JWK key : verificationKeys.getKeys()) {
      keys.add((ECKey) key);
    }
    return new CallerTokens(null, keys, type, issuer, List.of(audience), clock);
  }

  /** Whether these tokens can be signed here (only at the gateway). */
  public boolean canSign() {
    return signer != null;
  }

  /**
   * A token for the caller with at least half of {@code ttl} left: the one issued before for the
   * same caller and lifetime while it has, else a new one.
   */
  public String reusable(Caller caller, Duration ttl) {
    Reuse key = new Reuse(caller, ttl);
    Instant now = clock.instant();
    Issued kept = issued.getIfPresent(key);
    if (kept != null && !kept.expiry().minus(ttl.dividedBy(2)).isBefore(now)) {
      return kept.token();
    }
    String token = issue(caller, ttl);
    issued.put(key, new Issued(token, now.plus(ttl)));
    return token;
  }

  /** A new token for the caller that expires after {@code ttl}. */
  public String issue(Caller caller, Duration ttl) {
    if (signer == null || signingKey == null) {
      throw new IllegalStateException("only the gateway signs internal tokens");
    }
    Instant now = clock.instant();
    JWTClaimsSet claims =
        CallerClaims.write(
                caller,
                new JWTClaimsSet.Builder()
                    .issuer(issuer)
                    .audience(audiences)
                    .jwtID(UUID.randomUUID().toString())
                    .issueTime(Date.from(now))
                    .expirationTime(Date.from(now.plus(ttl))))
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.ES256)
                .keyID(signingKey.getKeyID())
                .type(type)
                .build(),
            claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("could not sign a caller token", e);
    }
    return jwt.serialize();
  }

  /**
   * The caller a token names, if it is an ES256 internal token signed with one of the known keys
   * and its issuer, audience and expiry hold.
   *
   * @throws ProblemException of kind UNAUTHENTICATED otherwise
   */
  public Caller verify(@Nullable String token) {
    if (token == null || token.isBlank()) {
      throw CallerClaims.unauthenticated("no token");
    }
    Verified known = verified.getIfPresent(token);
    if (known != null) {
      if (known.expiry().plus(CLOCK_SKEW).isBefore(clock.instant())) {
        verified.invalidate(token);
        throw CallerClaims.unauthenticated("expired");
      }
      return known.caller();
    }
    try {
      SignedJWT jwt = SignedJWT.parse(token);
      JWSHeader header = jwt.getHeader();
      // Only ES256 with a known key id: "none", HMAC keyed with a public key and any other
      // algorithm are refused before a signature is looked at.
      ECDSAVerifier verifier = header.getKeyID() == null ? null : verifiers.get(header.getKeyID());
      if (!JWSAlgorithm.ES256.equals(header.getAlgorithm())
          || !type.equals(header.getType())
          || verifier == null
          || !jwt.verify(verifier)) {
        throw CallerClaims.unauthenticated("bad signature");
      }
      JWTClaimsSet claims = jwt.getJWTClaimsSet();
      if (!issuer.equals(claims.getIssuer())) {
        throw CallerClaims.unauthenticated("wrong issuer");
      }
      List<String> named = claims.getAudience();
      if (named == null || audiences.stream().noneMatch(named::contains)) {
        throw CallerClaims.unauthenticated("wrong audience");
      }
      Date expiry = claims.getExpirationTime();
      if (expiry == null || expiry.toInstant().plus(CLOCK_SKEW).isBefore(clock.instant())) {
        throw CallerClaims.unauthenticated("expired");
      }
      Caller caller = CallerClaims.read(claims);
      verified.put(token, new Verified(caller, expiry.toInstant()));
      return caller;
    } catch (ParseException | JOSEException | IllegalArgumentException | NullPointerException e) {
      throw CallerClaims.unauthenticated("unreadable token");
    }
  }
}
