package io.agentteams.platform.roster;

import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import reactor.core.publisher.Mono;

/**
 * {@link TeamAccess} decided against this service's roster projection, read through a {@link
 * RosterCache}: what a service that learns teams from events asks before it acts on one.
 */
public final class RosterAccess {

  private final TeamAccess access;
  private final RosterCache rosters;

  /**
   * @param cacheTtl how long a roster read is reused (zero reads the projection on every call)
   */
  public RosterAccess(TeamAccess access, Rosters rosters, Duration cacheTtl) {
    this.access = access;
    this.rosters = new RosterCache(rosters, cacheTtl);
  }

  /** Access to the team as the policy grants it, with its roster; or the refusal. */
  public Mono<Grant<Roster>> check(Caller caller, UUID teamId, AccessPolicy policy) {
    return access.check(caller, teamId, policy, Mono.defer(() -> rosters.find(teamId)));
  }

  /** The refusals the caller's token alone decides, before anything is read. */
  public Optional<DomainFailure> screen(Caller caller, UUID teamId, AccessPolicy policy) {
    return access.screen(caller, teamId, policy);
  }
}
