package io.agentteams.platform.identity;

import com.nimbusds.jwt.JWTClaimsSet;
import io.agentteams.platform.problem.ProblemException;
import java.text.ParseException;
import java.util.UUID;

/** How a {@link Caller} is written into and read from a token's claims. */
public final class CallerClaims {

  private CallerClaims() {}

  /** Sets the subject and the claims that name the caller. */
  public static JWTClaimsSet.Builder write(Caller caller, JWTClaimsSet.Builder claims) {
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
      if (member.lease() != null) {
        claims.claim("lease", member.lease());
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
    return claims;
  }

  /**
   * The caller the claims name.
   *
   * @throws ProblemException of kind UNAUTHENTICATED when they name none
   */
  public static Caller read(JWTClaimsSet claims) {
    try {
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
              job == null ? null : UUID.fromString(job),
              claims.getIntegerClaim("lease"));
        }
        case "worker" -> new Caller.Worker(subject, claims.getStringClaim("agent"));
        case "team-a2a" ->
            new Caller.TeamAgent(subject, UUID.fromString(claims.getStringClaim("team")));
        case "service" -> new Caller.Service(subject);
        default -> throw unauthenticated("unknown caller kind");
      };
    } catch (ParseException | IllegalArgumentException | NullPointerException e) {
      throw unauthenticated("token names no caller");
    }
  }

  static ProblemException unauthenticated(String why) {
    return new ProblemException(
        ProblemException.Kind.UNAUTHENTICATED, "unauthenticated", "not authenticated: " + why);
  }
}
