package io.agentteams.team.tokens.domain;

import io.agentteams.platform.problem.DomainFailure;

/** The named refusals of the token registry. */
public final class TokenProblems {

  private TokenProblems() {}

  /** No such token of the owner's (or it is another owner's). */
  public static DomainFailure tokenNotFound(String id) {
    return DomainFailure.notFound("token", id);
  }

  /** A registration the gateway sent that names no subject its kind needs. */
  public static DomainFailure invalidRegistration(String detail) {
    return DomainFailure.invalid("invalid-token-registration", detail);
  }

  /** A revocation that names nothing to revoke, or more than one subject. */
  public static DomainFailure invalidRevocation() {
    return DomainFailure.invalid(
        "invalid-revocation", "name either agent_id, or team_id and member, in the query");
  }
}
