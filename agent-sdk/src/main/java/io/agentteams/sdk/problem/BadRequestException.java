package io.agentteams.sdk.problem;

/** 400: The request is malformed or breaks a rule of the input (the detail names it). */
public final class BadRequestException extends ApiException {

  public BadRequestException(Problem problem) {
    super(problem);
  }
}
