package io.agentteams.sdk.problem;

/** 413: The body is larger than the gateway accepts. */
public final class PayloadTooLargeException extends ApiException {

  public PayloadTooLargeException(Problem problem) {
    super(problem);
  }
}
