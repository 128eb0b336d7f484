package io.agentteams.sdk.problem;

/**
 * The API could not be reached or did not answer in time; the call may or may not have happened.
 */
public final class TransportException extends AgentTeamsException {

  public TransportException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public boolean retryable() {
    return true;
  }
}
