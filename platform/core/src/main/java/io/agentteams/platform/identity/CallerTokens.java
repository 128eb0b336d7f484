package io.agentteams.platform.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.agentteams.platform.problem.ProblemException;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Signs and verifies the compact tokens that carry a {@link Caller}: HMAC-SHA256 JWTs with an
 * issuer, an audience and a short expiry. One instance per (secret, audience) pair, so a token for
 * one audience is never accepted by another.
 */
public final class CallerTokens {

  private static final Duration CLOCK_SKEW = Duration.ofSeconds(30);

  private final MACSigner signer;
  private final MACVerifier verifier;
  private final String issuer;
  private final String audience;
  private final Clock clock;

  /**
   * @param secret at least 32 bytes of key material
   * @param issuer who signs
   * @param audience who accepts
   */
  public CallerTokens(String secret, String issuer, String audience, Clock clock) {
    byte[] key = secret.getBytes(StandardCharsets.UTF_8);
    if (key.length < 32) {
      throw new IllegalArgumentException("a token secret needs at least 32 bytes");
    }
    try {
      this.signer = new MACSigner(key);
      this.verifier = new MACVerifier(key);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unusable token secret", e);
    }
    this.issuer = issuer;
    this.audience = audience;
    this.clock = clock;
  }

  /** A token for the caller that expires after {@code ttl}. */
  public String issue(Caller caller, Duration ttl) {
    Instant now = clock.instant();
    JWTClaimsSet.Builder claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer)
            .audience(audience)
            .jwtID(UUID.randomUUID().toString())
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plus(ttl)));
    if (caller instanceof Caller.Owner owner) {
      claims.subject(owner.ownerId()).claim("kind", "owner");
    } else if (caller instanceof Caller.Member member) {
      claims
          .subject(member.ownerId())
          .claim("kind", "member")
          .claim("team", member.teamId().toString())
          .claim("member", member.member());
      if (member.jobId() != null) {
        claims.claim("job", member.jobId().toString());
      }
    } else if (caller instanceof Caller.Worker worker) {
      claims.subject(worker.ownerId()).claim("kind", "worker").claim("agent", worker.agentId());
    } else if (caller instanceof Caller.TeamAgent agent) {
      claims
          .subject(agent.ownerId())
          .claim("kind", "team-a2a")
          .claim("team", agent.teamId().toString());
    } else if (caller instanceof Caller.Service service) {
      claims.subject(service.name()).claim("kind", "service");
    }
    SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.build());
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("could not sign a caller token", e);
    }
    return jwt.serialize();
  }

  /**
   * The caller a token names, if its signature, issuer, audience and expiry hold.
   *
   * @throws ProblemException of kind UNAUTHENTICATED otherwise
   */
  public Caller verify(@Nullable String token) {
    if (token == null || token.isBlank()) {
      throw unauthenticated("no token");
    }
    try {
      SignedJWT jwt = SignedJWT.parse(token);
      if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()) || !jwt.verify(verifier)) {
        throw unauthenticated("bad signature");
      }
      JWTClaimsSet claims = jwt.getJWTClaimsSet();
      Instant now = clock.instant();
      if (!issuer.equals(claims.getIssuer())) {
        throw unauthenticated("wrong issuer");
      }
      List<String> audiences = claims.getAudience();
      if (audiences == null || !audiences.contains(audience)) {
        throw unauthenticated("wrong audience");
      }
      Date expiry = claims.getExpirationTime();
      if (expiry == null || expiry.toInstant().plus(CLOCK_SKEW).isBefore(now)) {
        throw unauthenticated("expired");
      }
      return toCaller(claims);
    } catch (ParseException | JOSEException | IllegalArgumentException | NullPointerException e) {
      throw unauthenticated("unreadable token");
    }
  }

  private static Caller toCaller(JWTClaimsSet claims) throws ParseException {
    String kind = claims.getStringClaim("kind");
    String subject = claims.getSubject();
    if (kind == null || subject == null) {
      throw unauthenticated("token names no caller");
    }
    return switch (kind) {
      case "owner" -> new Caller.Owner(subject);
      case "member" -> {
        String job = claims.getStringClaim("job");
        yield new Caller.Member(
            subject,
            UUID.fromString(claims.getStringClaim("team")),
            claims.getStringClaim("member"),
            job == null ? null : UUID.fromString(job));
      }
      case "worker" -> new Caller.Worker(subject, claims.getStringClaim("agent"));
      case "team-a2a" ->
          new Caller.TeamAgent(subject, UUID.fromString(claims.getStringClaim("team")));
      case "service" -> new Caller.Service(subject);
      default -> throw unauthenticated("unknown caller kind");
    };
  }

  private static ProblemException unauthenticated(String why) {
    return new ProblemException(
        ProblemException.Kind.UNAUTHENTICATED, "unauthenticated", "not authenticated: " + why);
  }
}
