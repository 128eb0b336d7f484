package io.agentteams.sdk.problem;

/** 403: The caller may see the resource but not do this to it. */
public final class ForbiddenException extends ApiException {

  public ForbiddenException(Problem problem) {
    super(problem);
  }
}
