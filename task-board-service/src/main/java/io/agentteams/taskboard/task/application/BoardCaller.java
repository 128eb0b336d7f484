package io.agentteams.taskboard.task.application;

import static io.agentteams.platform.access.AccessPolicy.CallerKind.MEMBER;
import static io.agentteams.platform.access.AccessPolicy.CallerKind.OWNER;

import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Acting;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.taskboard.task.domain.Actor;
import io.agentteams.taskboard.task.domain.BoardProblems;
import io.agentteams.taskboard.task.domain.TeamMembers;
import java.util.UUID;
import java.util.stream.Collectors;
import reactor.core.publisher.Mono;

/**
 * A caller as the task board sees it once team access let it in: a member (and whether the lead) or
 * the team's owner, with the team's members.
 *
 * @param teamId the team
 * @param ownerId the team's owner
 * @param actor whom the caller acts as on the board
 * @param members the names on the team's roster
 */
public record BoardCaller(UUID teamId, String ownerId, Actor actor, TeamMembers members) {

  /**
   * The board serves the team's members and its owner. A team this service has not heard of, one
   * that is deleted, or another owner's team is not found, whatever the caller's token says; a
   * caller of the owner who is not on the roster (a member token of another team, an agent worker)
   * is refused.
   */
  public static final AccessPolicy POLICY =
      AccessPolicy.admitting(OWNER, MEMBER)
          .judgingTokensAfterOwnership()
          .refusingOtherCallers((caller, teamId) -> BoardProblems.notOnTheBoard())
          .refusingForeignTokens((member, teamId) -> TeamAccess.notFound(teamId))
          .refusingNonMembers(
              (member, teamId) -> BoardProblems.notAMember(member.member(), teamId));

  /** The caller on the team's board, or the refusal. */
  public static Mono<BoardCaller> resolve(RosterAccess access, Caller caller, UUID teamId) {
    return access.check(caller, teamId, POLICY).map(BoardCaller::of);
  }

  private static BoardCaller of(Grant<Roster> grant) {
    Actor actor =
        grant.as() instanceof Acting.AsMember member
            ? new Actor.Member(member.name(), member.lead())
            : new Actor.TeamOwner(grant.ownerId());
    TeamMembers members =
        new TeamMembers(
            grant.team().members().stream().map(Roster.Member::name).collect(Collectors.toSet()));
    return new BoardCaller(grant.team().teamId(), grant.ownerId(), actor, members);
  }
}
