package io.agentteams.platform.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.token.SignedTokens;
import io.agentteams.platform.token.TokenFormat;
import io.agentteams.platform.token.TokenRefused;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * them. Signing and checking are the token service's ({@link SignedTokens}); this class adds only
 * the caller in the claims and the two memories.
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

  /** How many issued and how many verified tokens are remembered (each a few hundred bytes). */
  static final int REMEMBERED = 10_000;

  private final SignedTokens tokens;
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

  private CallerTokens(SignedTokens tokens, Clock clock) {
    this.tokens = tokens;
    this.clock = clock;
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
    return new CallerTokens(
        SignedTokens.es256Signing(
            signingKeys, TokenFormat.of(type, issuer, List.of(audience)), clock),
        clock);
  }

  /**
   * TEST ONLY: tokens for every one of {@code audiences} at once, which no gateway ever signs (it
   * signs each for the one service it calls), for tests that call services directly.
   */
  public static CallerTokens signingForEvery(
      List<ECKey> signingKeys, String issuer, List<String> audiences, Clock clock) {
    return new CallerTokens(
        SignedTokens.es256Signing(signingKeys, TokenFormat.of(TYPE, issuer, audiences), clock),
        clock);
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
    return new CallerTokens(
        SignedTokens.es256Verifying(keys, TokenFormat.of(type, issuer, List.of(audience)), clock),
        clock);
  }

  /** Whether these tokens can be signed here (only at the gateway). */
  public boolean canSign() {
    return tokens.canSign();
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
    if (!tokens.canSign()) {
      throw new IllegalStateException("only the gateway signs internal tokens");
    }
    return tokens.mint(CallerClaims.write(caller, new JWTClaimsSet.Builder()), ttl).token();
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
      if (!tokens.isAlive(known.expiry())) {
        verified.invalidate(token);
        throw CallerClaims.unauthenticated("expired");
      }
      return known.caller();
    }
    JWTClaimsSet claims;
    try {
      claims = tokens.verify(token);
    } catch (TokenRefused refused) {
      throw CallerClaims.unauthenticated(refused.reason().why());
    }
    Caller caller = CallerClaims.read(claims);
    verified.put(token, new Verified(caller, claims.getExpirationTime().toInstant()));
    return caller;
  }
}
