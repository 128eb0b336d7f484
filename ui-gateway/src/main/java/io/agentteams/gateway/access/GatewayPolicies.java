package io.agentteams.gateway.access;

import static io.agentteams.platform.access.AccessPolicy.CallerKind.MEMBER;
import static io.agentteams.platform.access.AccessPolicy.CallerKind.OWNER;

import io.agentteams.platform.access.AccessPolicy;

/**
 * What the gateway's own team operations admit. The gateway holds no roster: a member token is
 * judged by the token alone (for another team it learns nothing: not found), and an owner's team is
 * left to team-service, which decides with the same team access.
 */
public final class GatewayPolicies {

  private GatewayPolicies() {}

  /** A member's view of the team (its events): that member itself, or the team's owner. */
  public static final AccessPolicy MEMBER_VIEW =
      AccessPolicy.admitting(OWNER, MEMBER)
          .refusingOtherCallers(
              (caller, teamId) ->
                  AccessProblems.wrongCallerKind("only the member or the team's owner may do this"))
          .refusingOtherMembers((member, teamId) -> AccessProblems.notThisMember(member.member()));

  /** What only a member does for itself, such as waiting for what concerns it. */
  public static final AccessPolicy MEMBERS =
      AccessPolicy.admitting(MEMBER)
          .refusingOtherCallers(
              (caller, teamId) ->
                  AccessProblems.wrongCallerKind("this operation is for member tokens"));

  /** The team's context: its owner or one of its members. */
  public static final AccessPolicy MEMBERS_AND_OWNER =
      AccessPolicy.admitting(OWNER, MEMBER)
          .refusingOtherCallers(
              (caller, teamId) ->
                  AccessProblems.wrongCallerKind(
                      "only the team's owner and its members may do this"));
}
