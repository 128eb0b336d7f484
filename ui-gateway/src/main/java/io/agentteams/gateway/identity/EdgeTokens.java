package io.agentteams.gateway.identity;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerClaims;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.token.SignedTokens;
import io.agentteams.platform.token.TokenFormat;
import io.agentteams.platform.token.TokenRefused;
import io.agentteams.platform.token.TokenRevocations;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The tokens this system hands to its clients (development owner tokens, member and worker tokens
 * an owner mints), signed and verified by the gateway alone with its edge keys (HS256, each token
 * naming its key's {@code kid}); no service holds these keys. A token its owner revoked is refused
 * with 401 {@code token-revoked}. Besides them the gateway accepts the scheduler's job-scoped
 * member tokens, verified with the scheduler's public dispatch keys and accepted only as a member
 * within one job: the scheduler's key can mint nothing else the gateway takes. A token naming a
 * {@code service} caller is never accepted from a client.
 */
public final class EdgeTokens {

  /** The JOSE type of edge tokens. */
  public static final JOSEObjectType TYPE = new JOSEObjectType("agent-teams+jwt");

  /** The problem code of a token its owner revoked. */
  public static final String REVOKED = "token-revoked";

  private final SignedTokens tokens;
  private final CallerTokens jobMemberTokens;

  /**
   * @param keys the edge keys; the first signs, every one verifies (two while rotating)
   * @param jobMemberTokens verifies the scheduler's job-scoped member tokens
   * @param revocations the ids of the edge tokens their owners revoked
   */
  public EdgeTokens(
      List<OctetSequenceKey> keys,
      CallerTokens jobMemberTokens,
      String issuer,
      String audience,
      TokenRevocations revocations,
      Clock clock) {
    this.tokens =
        SignedTokens.hs256(keys, TokenFormat.of(TYPE, issuer, List.of(audience)), clock)
            .revocableBy(revocations);
    this.jobMemberTokens = jobMemberTokens;
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
    SignedTokens.Minted minted =
        tokens.mint(CallerClaims.write(caller, new JWTClaimsSet.Builder()), ttl);
    return new Issued(minted.token(), minted.id(), minted.issuedAt(), minted.expiresAt());
  }

  /**
   * The {@code jti} of a token already verified (to watch for its revocation), or null when it has
   * none (an identity provider's token may not).
   */
  public static @Nullable String tokenId(@Nullable String token) {
    return SignedTokens.tokenId(token);
  }

  /**
   * The caller an edge token or a job-scoped member token names.
   *
   * @throws ProblemException of kind UNAUTHENTICATED when neither holds (code {@value #REVOKED} for
   *     an edge token its owner revoked)
   */
  public Caller verify(@Nullable String token) {
    if (token == null || token.isBlank()) {
      throw unauthenticated("no token");
    }
    if (isJobMemberToken(token)) {
      return jobMember(token);
    }
    JWTClaimsSet claims;
    try {
      claims = tokens.verify(token);
    } catch (TokenRefused refused) {
      throw refusal(refused.reason());
    }
    Caller caller = CallerClaims.read(claims);
    if (caller instanceof Caller.Service) {
      throw unauthenticated("a service token is not accepted at the edge");
    }
    return caller;
  }

  private static boolean isJobMemberToken(String token) {
    try {
      return CallerTokens.JOB_MEMBER_TYPE.equals(SignedJWT.parse(token).getHeader().getType());
    } catch (ParseException e) {
      return false;
    }
  }

  private Caller jobMember(String token) {
    Caller caller = jobMemberTokens.verify(token);
    if (!(caller instanceof Caller.Member member) || member.jobId() == null) {
      throw unauthenticated("a dispatch token acts only as a member within one job");
    }
    return caller;
  }

  private static ProblemException refusal(TokenRefused.Reason reason) {
    return switch (reason) {
      case REVOKED ->
          new ProblemException(
              ProblemException.Kind.UNAUTHENTICATED,
              REVOKED,
              "not authenticated: this token was revoked by its owner");
      case WRONG_ISSUER, WRONG_AUDIENCE, EXPIRED ->
          unauthenticated("wrong issuer, audience or expired");
      default -> unauthenticated(reason.why());
    };
  }

  private static ProblemException unauthenticated(String why) {
    return new ProblemException(
        ProblemException.Kind.UNAUTHENTICATED, "unauthenticated", "not authenticated: " + why);
  }
}
