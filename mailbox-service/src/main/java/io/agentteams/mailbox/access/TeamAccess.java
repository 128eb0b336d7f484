package io.agentteams.mailbox.access;

import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterCache;
import io.agentteams.platform.roster.Rosters;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Checks a caller against the team's roster as this service learned it from team events (read
 * through a {@link RosterCache} for {@code roster-cache-ttl}, since a send checks its sender and
 * its recipients against it). A team this service has not learned of, or one that belongs to
 * another owner, answers 404; a member token for another team, or for a name the roster does not
 * hold, is refused with 403.
 */
@Component
public class TeamAccess {

  private final RosterCache rosters;

  public TeamAccess(Rosters rosters, MailboxProperties properties) {
    this.rosters = new RosterCache(rosters, properties.rosterCacheTtl());
  }

  /** The roster, for a member of that very team acting as itself. */
  public Mono<Membership> member(Caller.Member caller, UUID teamId) {
    if (!caller.teamId().equals(teamId)) {
      return Mono.error(
          new ProblemException(
              ProblemException.Kind.FORBIDDEN,
              "wrong-team",
              "this member token is for another team",
              Map.of("team_id", teamId.toString())));
    }
    return roster(teamId)
        .filter(roster -> roster.ownedBy(caller.ownerId()))
        .switchIfEmpty(Mono.error(ProblemException.notFound("team", teamId)))
        .flatMap(
            roster ->
                roster
                    .member(caller.member())
                    .map(member -> Mono.just(new Membership(roster, member)))
                    .orElseGet(
                        () ->
                            Mono.error(
                                new ProblemException(
                                    ProblemException.Kind.FORBIDDEN,
                                    "not-a-member",
                                    "'" + caller.member() + "' is not a member of this team",
                                    Map.of("member", caller.member())))));
  }

  /** The roster, for the team's owner, one of its members, or another service of this system. */
  public Mono<Roster> reader(Caller caller, UUID teamId) {
    if (caller instanceof Caller.Member member) {
      return member(member, teamId).map(Membership::roster);
    }
    if (caller instanceof Caller.Owner owner) {
      return roster(teamId)
          .filter(roster -> roster.ownedBy(owner.ownerId()))
          .switchIfEmpty(Mono.error(ProblemException.notFound("team", teamId)));
    }
    if (caller instanceof Caller.Service) {
      return roster(teamId).switchIfEmpty(Mono.error(ProblemException.notFound("team", teamId)));
    }
    return Mono.error(
        new ProblemException(
            ProblemException.Kind.FORBIDDEN,
            "wrong-caller-kind",
            "an agent worker cannot read a team's mailbox"));
  }

  private Mono<Roster> roster(UUID teamId) {
    return rosters.find(teamId).filter(roster -> !"deleted".equals(roster.status()));
  }

  /**
   * A member of a team acting within it.
   *
   * @param roster the team's roster
   * @param member the member's entry in it
   */
  public record Membership(Roster roster, Roster.Member member) {}
}
