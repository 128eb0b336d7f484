package io.agentteams.taskboard.task.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.domain.Actor;
import io.agentteams.taskboard.task.domain.TeamMembers;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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

  private static final int CACHE_SWEEP_SIZE = 1024;

  private final Rosters rosters;
  private final long cacheNanos;
  private final Map<UUID, Cached> cache = new ConcurrentHashMap<>();

  public BoardAccess(Rosters rosters, TaskBoardProperties properties) {
    this.rosters = rosters;
    this.cacheNanos = properties.rosterCacheTtl().toNanos();
  }

  /**
   * A roster read, kept for {@code roster-cache-ttl}. Rosters change rarely (members are fixed; the
   * status may change), and a member's token already outlives a change by its own lifetime, so a
   * second of staleness weakens nothing while it saves two queries on every claim and heartbeat. A
   * team that is not known yet is never cached.
   */
  private record Cached(Roster roster, long expiresAt) {}

  /** A caller resolved against a team's roster. */
  public record Access(UUID teamId, String ownerId, Actor actor, TeamMembers members) {}

  public Mono<Access> resolve(Caller caller, UUID teamId) {
    return roster(teamId)
        .filter(roster -> !"deleted".equals(roster.status()) && roster.ownedBy(caller.ownerId()))
        .switchIfEmpty(Mono.error(() -> ProblemException.notFound("team", teamId)))
        .map(
            roster -> new Access(teamId, roster.ownerId(), actor(caller, roster), members(roster)));
  }

  private Mono<Roster> roster(UUID teamId) {
    if (cacheNanos <= 0) {
      return rosters.find(teamId);
    }
    Cached cached = cache.get(teamId);
    long now = System.nanoTime();
    if (cached != null && cached.expiresAt() - now > 0) {
      return Mono.just(cached.roster());
    }
    return rosters
        .find(teamId)
        .doOnNext(
            roster -> {
              if (cache.size() >= CACHE_SWEEP_SIZE) {
                // Bounded by the teams active within one TTL: expired entries go before adding.
                cache.values().removeIf(c -> c.expiresAt() - now <= 0);
              }
              cache.put(teamId, new Cached(roster, now + cacheNanos));
            });
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
      throw new ProblemException(
          ProblemException.Kind.FORBIDDEN,
          "not-a-member",
          member.member() + " is not a member of team " + roster.teamId(),
          Map.of("member", member.member()));
    }
    throw new ProblemException(
        ProblemException.Kind.FORBIDDEN,
        "not-a-member",
        "only the team's members and its owner use its task board");
  }

  private static TeamMembers members(Roster roster) {
    return new TeamMembers(
        roster.members().stream().map(Roster.Member::name).collect(Collectors.toSet()));
  }
}
