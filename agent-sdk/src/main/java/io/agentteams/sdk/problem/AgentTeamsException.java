package io.agentteams.sdk.problem;

/** Anything a call to the API can fail with. */
public abstract class AgentTeamsException extends RuntimeException {

  protected AgentTeamsException(String message, Throwable cause) {
    super(message, cause);
  }

  protected AgentTeamsException(String message) {
    super(message);
  }

  /** Whether trying the same call again later may succeed. */
  public abstract boolean retryable();
}
