package io.agentteams.sdk.problem;

/** 404: The resource does not exist, or the caller may not know that it does. */
public final class NotFoundException extends ApiException {

  public NotFoundException(Problem problem) {
    super(problem);
  }
}
