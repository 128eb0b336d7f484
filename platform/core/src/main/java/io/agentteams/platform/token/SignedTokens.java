package io.agentteams.platform.token;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.agentteams.platform.token.TokenRefused.Reason;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The token service: mints and verifies the signed tokens of one {@link TokenFormat} with one set
 * of keys, ES256 (EC P-256: who verifies need not be able to sign) or HS256 (a shared secret: only
 * the holder reads its own tokens back). Each token names its signing key's {@code kid}, so two
 * keys are accepted at once while one replaces the other.
 *
 * <p>A token is accepted only when, in this order: it is a JWS; its algorithm is the keys' own
 * (never {@code none}, never HMAC keyed with a public key), its type is the format's, its key id is
 * known and its signature holds under that key; its issuer and one of its audiences are the
 * format's; it has not expired (beyond the format's clock skew); and its id is not revoked. The
 * first that fails is the {@link TokenRefused.Reason}.
 */
public final class SignedTokens {

  /** Where the one key of a set without key ids is kept (the console's secret). */
  private static final String NO_KEY_ID = "";

  private final JWSAlgorithm algorithm;
  private final @Nullable JWSSigner signer;
  private final @Nullable String signingKeyId;
  private final Map<String, JWSVerifier> verifiers;
  private final TokenFormat format;
  private final TokenRevocations revocations;
  private final Clock clock;

  /**
   * A token handed out.
   *
   * @param token the token itself
   * @param id its {@code jti}
   * @param issuedAt when it was made
   * @param expiresAt when it expires
   */
  public record Minted(String token, UUID id, Instant issuedAt, Instant expiresAt) {}

  private SignedTokens(
      JWSAlgorithm algorithm,
      @Nullable JWSSigner signer,
      @Nullable String signingKeyId,
      Map<String, JWSVerifier> verifiers,
      TokenFormat format,
      Clock clock) {
    this(algorithm, signer, signingKeyId, verifiers, format, TokenRevocations.NONE, clock);
  }

  private SignedTokens(
      JWSAlgorithm algorithm,
      @Nullable JWSSigner signer,
      @Nullable String signingKeyId,
      Map<String, JWSVerifier> verifiers,
      TokenFormat format,
      TokenRevocations revocations,
      Clock clock) {
    this.algorithm = algorithm;
    this.signer = signer;
    this.signingKeyId = signingKeyId;
    this.verifiers = Map.copyOf(verifiers);
    this.format = format;
    this.revocations = revocations;
    this.clock = clock;
  }

  /** ES256 tokens signed with the first of the EC keys (private) and verified with every one. */
  public static SignedTokens es256Signing(List<ECKey> keys, TokenFormat format, Clock clock) {
    return signing(JWSAlgorithm.ES256, keys, format, clock);
  }

  /** ES256 tokens verified with the public halves of the EC keys; nothing can be signed. */
  public static SignedTokens es256Verifying(List<ECKey> keys, TokenFormat format, Clock clock) {
    return new SignedTokens(JWSAlgorithm.ES256, null, null, verifiers(keys), format, clock);
  }

  /** HS256 tokens signed with the first of the symmetric keys and verified with every one. */
  public static SignedTokens hs256(List<OctetSequenceKey> keys, TokenFormat format, Clock clock) {
    return signing(JWSAlgorithm.HS256, keys, format, clock);
  }

  /** HS256 tokens of one secret (256 bits or more) that has no key id; their header names none. */
  public static SignedTokens hs256(byte[] secret, TokenFormat format, Clock clock) {
    try {
      Map<String, JWSVerifier> verifier = Map.of(NO_KEY_ID, new MACVerifier(secret));
      return new SignedTokens(
          JWSAlgorithm.HS256, new MACSigner(secret), null, verifier, format, clock);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unusable secret", e);
    }
  }

  private static SignedTokens signing(
      JWSAlgorithm algorithm, List<? extends JWK> keys, TokenFormat format, Clock clock) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("no signing key");
    }
    JWK first = keys.get(0);
    try {
      JWSSigner signer =
          first instanceof ECKey ec ? new ECDSASigner(ec) : new MACSigner((OctetSequenceKey) first);
      return new SignedTokens(algorithm, signer, first.getKeyID(), verifiers(keys), format, clock);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unusable signing key", e);
    }
  }

  /** A verifier for each key by its id: the public half of an EC key, or the symmetric key. */
  private static Map<String, JWSVerifier> verifiers(List<? extends JWK> keys) {
    Map<String, JWSVerifier> byId = new HashMap<>();
    try {
      for (JWK key : keys) {
        byId.put(
            key.getKeyID(),
            key instanceof ECKey ec
                ? new ECDSAVerifier(ec.toPublicJWK())
                : new MACVerifier((OctetSequenceKey) key));
      }
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unusable verification key", e);
    }
    return byId;
  }

  /** The same tokens, refused once their id is among the revoked. */
  public SignedTokens revocableBy(TokenRevocations revocations) {
    return new SignedTokens(algorithm, signer, signingKeyId, verifiers, format, revocations, clock);
  }

  /** Whether tokens can be signed here. */
  public boolean canSign() {
    return signer != null;
  }

  /** A new token of the claims that expires after {@code ttl}. */
  public Minted mint(JWTClaimsSet.Builder claims, Duration ttl) {
    return mint(claims, clock.instant().plus(ttl));
  }

  /**
   * A new token of the claims (a caller's, a session's), with this format's issuer and audiences, a
   * fresh id, the time it is issued and {@code expiresAt}.
   *
   * @throws IllegalStateException where these tokens are only verified
   */
  public Minted mint(JWTClaimsSet.Builder claims, Instant expiresAt) {
    JWSSigner signing = signer;
    if (signing == null) {
      throw new IllegalStateException("these tokens are verified here, never signed");
    }
    Instant now = clock.instant();
    UUID id = UUID.randomUUID();
    if (format.issuer() != null) {
      claims.issuer(format.issuer());
    }
    if (!format.audiences().isEmpty()) {
      claims.audience(format.audiences());
    }
    claims.jwtID(id.toString()).issueTime(Date.from(now)).expirationTime(Date.from(expiresAt));
    JWSHeader.Builder header = new JWSHeader.Builder(algorithm).keyID(signingKeyId);
    if (format.type() != null) {
      header.type(format.type());
    }
    SignedJWT jwt = new SignedJWT(header.build(), claims.build());
    try {
      jwt.sign(signing);
    } catch (JOSEException e) {
      throw new IllegalStateException("could not sign a token", e);
    }
    return new Minted(jwt.serialize(), id, now, expiresAt);
  }

  /**
   * The claims of a token this service accepts (see the class comment for what is checked).
   *
   * @throws TokenRefused naming the first check that failed
   */
  public JWTClaimsSet verify(@Nullable String token) {
    if (token == null || token.isBlank()) {
      throw new TokenRefused(Reason.NO_TOKEN);
    }
    try {
      SignedJWT jwt = SignedJWT.parse(token);
      JWSHeader header = jwt.getHeader();
      // The algorithm is the keys' own, checked before a signature is looked at: "none", HMAC
      // keyed with a public key and any other algorithm are refused here.
      String keyId = header.getKeyID() == null ? NO_KEY_ID : header.getKeyID();
      JWSVerifier verifier = verifiers.get(keyId);
      if (!algorithm.equals(header.getAlgorithm())
          || (format.type() != null && !format.type().equals(header.getType()))
          || verifier == null
          || !jwt.verify(verifier)) {
        throw new TokenRefused(Reason.BAD_SIGNATURE);
      }
      JWTClaimsSet claims = jwt.getJWTClaimsSet();
      if (format.issuer() != null && !format.issuer().equals(claims.getIssuer())) {
        throw new TokenRefused(Reason.WRONG_ISSUER);
      }
      List<String> named = claims.getAudience();
      if (!format.audiences().isEmpty()
          && (named == null || format.audiences().stream().noneMatch(named::contains))) {
        throw new TokenRefused(Reason.WRONG_AUDIENCE);
      }
      Date expiry = claims.getExpirationTime();
      if (expiry == null || !isAlive(expiry.toInstant())) {
        throw new TokenRefused(Reason.EXPIRED);
      }
      String id = claims.getJWTID();
      if (id != null && revocations.isRevoked(id)) {
        throw new TokenRefused(Reason.REVOKED);
      }
      return claims;
    } catch (ParseException | JOSEException | IllegalArgumentException | NullPointerException e) {
      throw new TokenRefused(Reason.UNREADABLE);
    }
  }

  /** Whether a token that expires at {@code expiry} is still accepted now (given the skew). */
  public boolean isAlive(Instant expiry) {
    return clock.instant().isBefore(expiry.plus(format.clockSkew()));
  }

  /**
   * The {@code jti} of a token, read without verifying it (to look it up among the revoked once it
   * is verified), or null when it has none or is no JWS.
   */
  public static @Nullable String tokenId(@Nullable String token) {
    if (token == null || token.isBlank()) {
      return null;
    }
    try {
      return SignedJWT.parse(token).getJWTClaimsSet().getJWTID();
    } catch (ParseException e) {
      return null;
    }
  }
}
