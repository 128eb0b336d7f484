package io.agentteams.gateway.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerClaims;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.problem.ProblemException;
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
 * The tokens this system hands to its clients (development owner tokens, member and worker tokens
 * an owner mints), signed and verified by the gateway alone with its edge keys (HS256, each token
 * naming its key's {@code kid}); no service holds these keys. Besides them the gateway accepts the
 * scheduler's job-scoped member tokens, verified with the scheduler's public dispatch keys and
 * accepted only as a member within one job: the scheduler's key can mint nothing else the gateway
 * takes. A token naming a {@code service} caller is never accepted from a client.
 */
public final class EdgeTokens {

  /** The JOSE type of edge tokens. */
  public static final JOSEObjectType TYPE = new JOSEObjectType("agent-teams+jwt");

  private static final Duration CLOCK_SKEW = Duration.ofSeconds(30);

  private final OctetSequenceKey signingKey;
  private final MACSigner signer;
  private final Map<String, MACVerifier> verifiers;
  private final CallerTokens jobMemberTokens;
  private final String issuer;
  private final String audience;
  private final Clock clock;

  /**
   * @param keys the edge keys; the first signs, every one verifies (two while rotating)
   * @param jobMemberTokens verifies the scheduler's job-scoped member tokens
   */
  public EdgeTokens(
      List<OctetSequenceKey> keys,
      CallerTokens jobMemberTokens,
      String issuer,
      String audience,
      Clock clock) {
    this.signingKey = keys.get(0);
    this.jobMemberTokens = jobMemberTokens;
    this.issuer = issuer;
    this.audience = audience;
    this.clock = clock;
    try {
      this.signer = new MACSigner(signingKey);
      Map<String, MACVerifier> byId = new HashMap<>();
      for (OctetSequenceKey key : keys) {
        byId.put(key.getKeyID(), new MACVerifier(key));
      }
      this.verifiers = Map.copyOf(byId);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unusable edge key", e);
    }
  }

  /**
   * A token handed out, with what the token registry records of it.
   *
   * @param token the token itself
   * @param id its {@code jti}
   * @param issuedAt when it was made
   * @param expiresAt when it expires
   */
  public record Issued(String token, UUID id, Instant issuedAt, Instant expiresAt) {}

  /** A token for the caller that expires after {@code ttl}. */
  public String issue(Caller caller, Duration ttl) {
    return mint(caller, ttl).token();
  }

  /** A token for the caller that expires after {@code ttl}, with its id and lifetime. */
  public Issued mint(Caller caller, Duration ttl) {
    if (caller instanceof Caller.Service) {
      throw new IllegalArgumentException("services never hold edge tokens");
    }
    Instant now = clock.instant();
    UUID id = UUID.randomUUID();
    Instant expiresAt = now.plus(ttl);
    JWTClaimsSet claims =
        CallerClaims.write(
                caller,
                new JWTClaimsSet.Builder()
                    .issuer(issuer)
                    .audience(audience)
                    .jwtID(id.toString())
                    .issueTime(Date.from(now))
                    .expirationTime(Date.from(expiresAt)))
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256)
                .keyID(signingKey.getKeyID())
                .type(TYPE)
                .build(),
            claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot sign an edge token", e);
    }
    return new Issued(jwt.serialize(), id, now, expiresAt);
  }

  /**
   * The {@code jti} of a token already verified (to look it up among the revoked), or null when it
   * has none (an identity provider's token may not).
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

  /**
   * The caller an edge token or a job-scoped member token names.
   *
   * @throws ProblemException of kind UNAUTHENTICATED when neither holds
   */
  public Caller verify(@Nullable String token) {
    if (token == null || token.isBlank()) {
      throw unauthenticated("no token");
    }
    try {
      SignedJWT jwt = SignedJWT.parse(token);
      JWSHeader header = jwt.getHeader();
      if (CallerTokens.JOB_MEMBER_TYPE.equals(header.getType())) {
        return jobMember(token);
      }
      MACVerifier verifier = header.getKeyID() == null ? null : verifiers.get(header.getKeyID());
      if (!JWSAlgorithm.HS256.equals(header.getAlgorithm())
          || !TYPE.equals(header.getType())
          || verifier == null
          || !jwt.verify(verifier)) {
        throw unauthenticated("bad signature");
      }
      JWTClaimsSet claims = jwt.getJWTClaimsSet();
      List<String> audiences = claims.getAudience();
      Date expiry = claims.getExpirationTime();
      if (!issuer.equals(claims.getIssuer())
          || audiences == null
          || !audiences.contains(audience)
          || expiry == null
          || expiry.toInstant().plus(CLOCK_SKEW).isBefore(clock.instant())) {
        throw unauthenticated("wrong issuer, audience or expired");
      }
      Caller caller = CallerClaims.read(claims);
      if (caller instanceof Caller.Service) {
        throw unauthenticated("a service token is not accepted at the edge");
      }
      return caller;
    } catch (ParseException | JOSEException e) {
      throw unauthenticated("unreadable token");
    }
  }

  private Caller jobMember(String token) {
    Caller caller = jobMemberTokens.verify(token);
    if (!(caller instanceof Caller.Member member) || member.jobId() == null) {
      throw unauthenticated("a dispatch token acts only as a member within one job");
    }
    return caller;
  }

  private static ProblemException unauthenticated(String why) {
    return new ProblemException(
        ProblemException.Kind.UNAUTHENTICATED, "unauthenticated", "not authenticated: " + why);
  }
}
