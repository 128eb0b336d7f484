package io.agentteams.gateway.access;

import io.agentteams.platform.problem.DomainFailure;
import java.util.Map;

/** How the gateway refuses a caller whose token does not fit the operation. */
public final class AccessProblems {

  private AccessProblems() {}

  /** A kind of caller the operation does not serve. */
  public static DomainFailure wrongCallerKind(String why) {
    return DomainFailure.forbidden("wrong-caller-kind", why);
  }

  /** A member token asking for another member's view. */
  public static DomainFailure notThisMember(String member) {
    return DomainFailure.forbidden(
        "not-this-member", "a member token acts only as its own member", Map.of("member", member));
  }
}
