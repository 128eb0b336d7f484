package io.agentteams.taskboard.task.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterCache;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.domain.Actor;
import io.agentteams.taskboard.task.domain.BoardProblems;
import io.agentteams.taskboard.task.domain.TeamMembers;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Decides who a caller is on a team's board, from the roster projection: a member (and whether the
 * lead), or the team's owner. A team this service has not heard of, or another owner's team, is not
 * found; a caller who is not on the roster is refused.
 */
@Component
public class BoardAccess {

  private final RosterCache rosters;

  public BoardAccess(Rosters rosters, TaskBoardProperties properties) {
    this.rosters = new RosterCache(rosters, properties.rosterCacheTtl());
  }

  /** A caller resolved against a team's roster. */
  public record Access(UUID teamId, String ownerId, Actor actor, TeamMembers members) {}

  public Mono<Access> resolve(Caller caller, UUID teamId) {
    return rosters
        .find(teamId)
        .filter(roster -> !"deleted".equals(roster.status()) && roster.ownedBy(caller.ownerId()))
        .switchIfEmpty(Mono.error(() -> DomainFailure.notFound("team", teamId)))
        .map(
            roster -> new Access(teamId, roster.ownerId(), actor(caller, roster), members(roster)));
  }

  private static Actor actor(Caller caller, Roster roster) {
    if (caller instanceof Caller.Owner owner) {
      return new Actor.TeamOwner(owner.ownerId());
    }
    if (caller instanceof Caller.Member member) {
      if (member.teamId().equals(roster.teamId())) {
        var found = roster.member(member.member());
        if (found.isPresent()) {
          return new Actor.Member(found.get().name(), found.get().lead());
        }
      }
      throw BoardProblems.notAMember(member.member(), roster.teamId());
    }
    throw BoardProblems.notOnTheBoard();
  }

  private static TeamMembers members(Roster roster) {
    return new TeamMembers(
        roster.members().stream().map(Roster.Member::name).collect(Collectors.toSet()));
  }
}
