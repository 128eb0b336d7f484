package io.agentteams.platform.access;

import io.agentteams.platform.access.AccessPolicy.CallerKind;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Decides whether a caller may act on a team, and as whom: the one place every service and the
 * gateway ask. The decision reads the verified caller and the team's roster, and follows the
 * operation's {@link AccessPolicy}:
 *
 * <ol>
 *   <li>the token alone (unless the policy judges it after ownership): an agent worker, or a kind
 *       of caller the operation does not admit, is refused; so is a member token for another team;
 *   <li>the team: one that does not exist or is gone, or that belongs to another owner than the
 *       caller's, is "not found" (another service acting on its own behalf owns no team, and is
 *       admitted to any team when the policy admits services);
 *   <li>whom the caller acts as: the owner, a member on the roster (with whether it leads), or a
 *       service; a member token whose name is not on the roster is refused;
 *   <li>the team's status: an operation the status does not allow is refused.
 * </ol>
 *
 * Nothing a refusal says depends on another owner's team: before step 2 only the caller's own token
 * is judged, and step 2 answers every outsider alike.
 */
public final class TeamAccess {

  /** The refusal every outsider gets: {@code team-not-found}, naming only the id it asked for. */
  public static DomainFailure notFound(UUID teamId) {
    return DomainFailure.notFound("team", teamId);
  }

  /**
   * The refusals that need no roster, for a caller whose team is checked elsewhere (the gateway
   * leaves an owner's team to the service that holds it).
   */
  public Optional<DomainFailure> screen(Caller caller, UUID teamId, AccessPolicy policy) {
    CallerKind kind = kindOf(caller);
    if (kind == null || !policy.admits(kind)) {
      return Optional.of(policy.otherCallers().refuse(caller, teamId));
    }
    if (caller instanceof Caller.Member member && !member.teamId().equals(teamId)) {
      return Optional.of(policy.foreignTokens().refuse(member, teamId));
    }
    return Optional.empty();
  }

  /** Like {@link #screen}, for a caller that asks to act as (or watch) one member of the team. */
  public Optional<DomainFailure> screenAs(
      Caller caller, UUID teamId, String member, AccessPolicy policy) {
    Optional<DomainFailure> refused = screen(caller, teamId, policy);
    if (refused.isPresent()) {
      return refused;
    }
    if (caller instanceof Caller.Member self && !self.member().equals(member)) {
      return Optional.of(policy.otherMembers().refuse(self, teamId));
    }
    return Optional.empty();
  }

  /** {@link #screen} as a completion: empty when the token alone does not refuse the caller. */
  public Mono<Void> screened(Caller caller, UUID teamId, AccessPolicy policy) {
    return Mono.defer(
        () -> screen(caller, teamId, policy).<Mono<Void>>map(Mono::error).orElse(Mono.empty()));
  }

  /** {@link #screenAs} as a completion: empty when the token alone does not refuse the caller. */
  public Mono<Void> screenedAs(Caller caller, UUID teamId, String member, AccessPolicy policy) {
    return Mono.defer(
        () ->
            screenAs(caller, teamId, member, policy)
                .<Mono<Void>>map(Mono::error)
                .orElse(Mono.empty()));
  }

  /**
   * Grants access to the team, or throws the refusal.
   *
   * @param team the team as read for the decision, or null when there is none
   * @throws DomainFailure when the caller may not act on the team
   */
  public <R extends TeamRoster> Grant<R> decide(
      Caller caller, UUID teamId, @Nullable R team, AccessPolicy policy) {
    if (policy.tokenFirst()) {
      refuseIfScreened(caller, teamId, policy);
    }
    if (team == null || !team.teamId().equals(teamId) || policy.gone(team.status())) {
      throw notFound(teamId);
    }
    boolean admittedService = caller instanceof Caller.Service && policy.admits(CallerKind.SERVICE);
    if (!admittedService && !team.ownerId().equals(caller.ownerId())) {
      throw notFound(teamId);
    }
    if (!policy.tokenFirst()) {
      refuseIfScreened(caller, teamId, policy);
    }
    Acting as = acting(caller, team, policy);
    if (!policy.active(team.status())) {
      throw policy.inactive().refuse(teamId, team.status());
    }
    return new Grant<>(team, as);
  }

  /**
   * Grants access to the team read by {@code team}, or fails with the refusal. The team is read
   * only when the token alone does not already refuse the caller.
   */
  public <R extends TeamRoster> Mono<Grant<R>> check(
      Caller caller, UUID teamId, AccessPolicy policy, Mono<R> team) {
    return Mono.defer(
        () -> {
          if (policy.tokenFirst()) {
            Optional<DomainFailure> refused = screen(caller, teamId, policy);
            if (refused.isPresent()) {
              return Mono.error(refused.get());
            }
          }
          return team.map(Optional::of)
              .defaultIfEmpty(Optional.empty())
              .map(found -> decide(caller, teamId, found.orElse(null), policy));
        });
  }

  private void refuseIfScreened(Caller caller, UUID teamId, AccessPolicy policy) {
    Optional<DomainFailure> refused = screen(caller, teamId, policy);
    if (refused.isPresent()) {
      throw refused.get();
    }
  }

  private static Acting acting(Caller caller, TeamRoster team, AccessPolicy policy) {
    if (caller instanceof Caller.Owner owner) {
      return new Acting.AsOwner(owner.ownerId());
    }
    if (caller instanceof Caller.Service service) {
      return new Acting.AsService(service.name());
    }
    if (caller instanceof Caller.Member member) {
      return team.seat(member.member())
          .<Acting>map(seat -> new Acting.AsMember(seat.member(), seat.lead(), member.jobId()))
          .orElseThrow(() -> policy.nonMembers().refuse(member, team.teamId()));
    }
    throw policy.otherCallers().refuse(caller, team.teamId());
  }

  private static @Nullable CallerKind kindOf(Caller caller) {
    if (caller instanceof Caller.Owner) {
      return CallerKind.OWNER;
    }
    if (caller instanceof Caller.Member) {
      return CallerKind.MEMBER;
    }
    if (caller instanceof Caller.Service) {
      return CallerKind.SERVICE;
    }
    return null;
  }
}
