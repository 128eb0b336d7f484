package io.agentteams.platform.access;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

/**
 * Who an operation admits and how it answers everyone else; {@link TeamAccess} applies it. What is
 * fixed for every policy: a caller of another owner, or a team that does not exist or is gone, is
 * answered "team not found" and learns nothing more; an agent worker never acts on a team. What a
 * policy chooses is only how insiders are refused (a member token naming another member or team, a
 * caller kind the operation does not serve, a team whose status does not allow it), so each service
 * keeps the answers its API has always given.
 *
 * <p>A policy starts from the kinds of caller it admits ({@link #admitting}); by default it answers
 * every refusal "not found", treats deleted teams as gone and allows every other status.
 */
public final class AccessPolicy {

  /** The kinds of caller an operation may admit. */
  public enum CallerKind {
    OWNER,
    MEMBER,
    SERVICE
  }

  /** Refuses a caller the operation does not serve. */
  @FunctionalInterface
  public interface CallerRefusal {
    DomainFailure refuse(Caller caller, UUID teamId);
  }

  /** Refuses a member token (for another team, for a name not on the roster, or another member). */
  @FunctionalInterface
  public interface MemberRefusal {
    DomainFailure refuse(Caller.Member member, UUID teamId);
  }

  /** Refuses an operation in a team whose status does not allow it. */
  @FunctionalInterface
  public interface StatusRefusal {
    DomainFailure refuse(UUID teamId, TeamStatus status);
  }

  private static final CallerRefusal NOT_FOUND = (caller, teamId) -> TeamAccess.notFound(teamId);
  private static final MemberRefusal MEMBER_NOT_FOUND =
      (member, teamId) -> TeamAccess.notFound(teamId);

  /** How insiders are refused, by what is wrong with them. */
  private record Refusals(
      CallerRefusal otherCallers,
      MemberRefusal foreignTokens,
      MemberRefusal nonMembers,
      MemberRefusal otherMembers) {}

  /**
   * What a team's status decides.
   *
   * @param gone the statuses in which a team is answered as not found
   * @param active the statuses that allow the operation
   * @param inactive the refusal in the others
   */
  private record Statuses(Set<TeamStatus> gone, Set<TeamStatus> active, StatusRefusal inactive) {
    Statuses {
      gone = Set.copyOf(gone);
      active = Set.copyOf(active);
    }
  }

  private final Set<CallerKind> admitted;
  private final boolean tokenFirst;
  private final Refusals refusals;
  private final Statuses statuses;

  private AccessPolicy(
      Set<CallerKind> admitted, boolean tokenFirst, Refusals refusals, Statuses statuses) {
    this.admitted = Set.copyOf(admitted);
    this.tokenFirst = tokenFirst;
    this.refusals = refusals;
    this.statuses = statuses;
  }

  /** A policy that admits these kinds of caller, with the defaults for everything else. */
  public static AccessPolicy admitting(CallerKind first, CallerKind... more) {
    return new AccessPolicy(
        EnumSet.of(first, more),
        true,
        new Refusals(NOT_FOUND, MEMBER_NOT_FOUND, MEMBER_NOT_FOUND, MEMBER_NOT_FOUND),
        new Statuses(
            EnumSet.of(TeamStatus.DELETED),
            EnumSet.allOf(TeamStatus.class),
            (teamId, status) -> TeamAccess.notFound(teamId)));
  }

  /** Refuses callers of a kind the operation does not admit with this failure. */
  public AccessPolicy refusingOtherCallers(CallerRefusal refusal) {
    Refusals r = refusals;
    return with(new Refusals(refusal, r.foreignTokens(), r.nonMembers(), r.otherMembers()));
  }

  /** Refuses a member token for another team with this failure. */
  public AccessPolicy refusingForeignTokens(MemberRefusal refusal) {
    Refusals r = refusals;
    return with(new Refusals(r.otherCallers(), refusal, r.nonMembers(), r.otherMembers()));
  }

  /** Refuses a member token whose name is not on the team's roster with this failure. */
  public AccessPolicy refusingNonMembers(MemberRefusal refusal) {
    Refusals r = refusals;
    return with(new Refusals(r.otherCallers(), r.foreignTokens(), refusal, r.otherMembers()));
  }

  /** Refuses a member token asking to act as another member with this failure. */
  public AccessPolicy refusingOtherMembers(MemberRefusal refusal) {
    Refusals r = refusals;
    return with(new Refusals(r.otherCallers(), r.foreignTokens(), r.nonMembers(), refusal));
  }

  /**
   * Judges the caller's kind and its token's team only once the team is known to be the caller
   * owner's, so that another owner's callers are answered "not found" whatever they hold. By
   * default both are judged from the token alone, before the team is read (which reveals nothing
   * either).
   */
  public AccessPolicy judgingTokensAfterOwnership() {
    return new AccessPolicy(admitted, false, refusals, statuses);
  }

  /** Answers a deleted team like any other instead of as gone: its status decides. */
  public AccessPolicy keepingDeletedTeams() {
    Set<TeamStatus> none = EnumSet.noneOf(TeamStatus.class);
    return with(new Statuses(none, statuses.active(), statuses.inactive()));
  }

  /** Allows the operation only in these statuses and refuses it in the others with this failure. */
  public AccessPolicy activeIn(Set<TeamStatus> active, StatusRefusal refusal) {
    return with(new Statuses(statuses.gone(), active, refusal));
  }

  private AccessPolicy with(Refusals changed) {
    return new AccessPolicy(admitted, tokenFirst, changed, statuses);
  }

  private AccessPolicy with(Statuses changed) {
    return new AccessPolicy(admitted, tokenFirst, refusals, changed);
  }

  boolean admits(CallerKind kind) {
    return admitted.contains(kind);
  }

  boolean tokenFirst() {
    return tokenFirst;
  }

  CallerRefusal otherCallers() {
    return refusals.otherCallers();
  }

  MemberRefusal foreignTokens() {
    return refusals.foreignTokens();
  }

  MemberRefusal nonMembers() {
    return refusals.nonMembers();
  }

  MemberRefusal otherMembers() {
    return refusals.otherMembers();
  }

  boolean gone(TeamStatus status) {
    return statuses.gone().contains(status);
  }

  boolean active(TeamStatus status) {
    return statuses.active().contains(status);
  }

  StatusRefusal inactive() {
    return statuses.inactive();
  }
}
