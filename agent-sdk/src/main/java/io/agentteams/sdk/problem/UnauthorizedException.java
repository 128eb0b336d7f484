package io.agentteams.sdk.problem;

/** 401: The token is missing, expired or revoked. */
public final class UnauthorizedException extends ApiException {

  public UnauthorizedException(Problem problem) {
    super(problem);
  }
}
