package io.agentteams.mailbox.access;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import java.util.Map;
import java.util.UUID;

/** How the mailbox refuses callers that are known but may not act as they ask. */
public final class AccessProblems {

  private AccessProblems() {}

  /** A member token whose name the team's roster does not hold. */
  public static DomainFailure notAMember(Caller.Member member, UUID teamId) {
    return DomainFailure.forbidden(
        "not-a-member",
        "'" + member.member() + "' is not a member of this team",
        Map.of("member", member.member()));
  }

  /** A kind of caller the operation does not serve. */
  public static DomainFailure wrongCallerKind(String why) {
    return DomainFailure.forbidden("wrong-caller-kind", why);
  }
}
