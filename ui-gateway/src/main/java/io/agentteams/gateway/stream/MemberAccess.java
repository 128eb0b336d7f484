package io.agentteams.gateway.stream;

import io.agentteams.gateway.identity.TeamDirectory;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Who may see a member's view of a team: that member (its token names the team and the member), or
 * the team's owner. Another team's token learns nothing (404); another member of the same team is
 * refused (403).
 */
@Component
public class MemberAccess {

  private final TeamDirectory directory;

  public MemberAccess(TeamDirectory directory) {
    this.directory = directory;
  }

  /** Completes when the caller may act as or watch the member of the team. */
  public Mono<Void> require(Caller caller, UUID teamId, String member) {
    if (caller instanceof Caller.Member self) {
      if (!self.teamId().equals(teamId)) {
        return Mono.error(ProblemException.notFound("team", teamId));
      }
      if (!self.member().equals(member)) {
        return Mono.error(
            new ProblemException(
                ProblemException.Kind.FORBIDDEN,
                "not-this-member",
                "a member token acts only as its own member",
                Map.of("member", self.member())));
      }
      return Mono.empty();
    }
    if (caller instanceof Caller.Owner owner) {
      return directory.requireVisible(owner, teamId);
    }
    return Mono.error(
        new ProblemException(
            ProblemException.Kind.FORBIDDEN,
            "wrong-caller-kind",
            "only the member or the team's owner may do this"));
  }

  /** The member a member token acts as, checked against the team. */
  public Mono<Caller.Member> self(Caller caller, UUID teamId) {
    if (caller instanceof Caller.Member member) {
      return member.teamId().equals(teamId)
          ? Mono.just(member)
          : Mono.error(ProblemException.notFound("team", teamId));
    }
    return Mono.error(
        new ProblemException(
            ProblemException.Kind.FORBIDDEN,
            "wrong-caller-kind",
            "this operation is for member tokens"));
  }

  /**
   * Completes when the caller is a member of the team or an owner; a member token of another team
   * learns nothing (404). An owner's visibility is left to the team read that follows, so the
   * team-service is asked once.
   */
  public Mono<Void> memberOrOwner(Caller caller, UUID teamId) {
    if (caller instanceof Caller.Member) {
      return self(caller, teamId).then();
    }
    if (caller instanceof Caller.Owner) {
      return Mono.empty();
    }
    return Mono.error(
        new ProblemException(
            ProblemException.Kind.FORBIDDEN,
            "wrong-caller-kind",
            "only the team's owner and its members may do this"));
  }
}
