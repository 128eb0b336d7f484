package io.agentteams.mailbox.access;

import static io.agentteams.platform.access.AccessPolicy.CallerKind.MEMBER;
import static io.agentteams.platform.access.AccessPolicy.CallerKind.OWNER;
import static io.agentteams.platform.access.AccessPolicy.CallerKind.SERVICE;

import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.TeamAccess;

/**
 * Who may use a team's mailbox, decided by the platform's team access against this service's roster
 * projection. A team this service has not learned of, one that is deleted, or one of another owner
 * is not found; a member token for another team, or for a name the roster does not hold, is refused
 * (403) before anything else is said.
 */
public final class MailboxPolicies {

  private MailboxPolicies() {}

  /** A member of the team acting as itself: its inbox. */
  public static final AccessPolicy MEMBERS =
      AccessPolicy.admitting(MEMBER)
          .refusingForeignTokens((member, teamId) -> TeamAccess.notFound(teamId))
          .refusingNonMembers(AccessProblems::notAMember);

  /** The team's owner, one of its members, or another service: the history and the results. */
  public static final AccessPolicy READERS =
      AccessPolicy.admitting(OWNER, MEMBER, SERVICE)
          .refusingOtherCallers(
              (caller, teamId) ->
                  AccessProblems.wrongCallerKind("an agent worker cannot read a team's mailbox"))
          .refusingForeignTokens((member, teamId) -> TeamAccess.notFound(teamId))
          .refusingNonMembers(AccessProblems::notAMember);

  /** Whoever writes to the team: a member as itself, the owner, or the system. */
  public static final AccessPolicy SENDERS =
      READERS.refusingOtherCallers(
          (caller, teamId) ->
              AccessProblems.wrongCallerKind("an agent worker cannot send team messages"));
}
