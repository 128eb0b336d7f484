package io.agentteams.sdk.problem;

/** 422: A configured limit would be exceeded; the problem names the limit and the actual value. */
public final class LimitExceededException extends ApiException {

  public LimitExceededException(Problem problem) {
    super(problem);
  }
}
