package io.agentteams.platform.event;

/** Bytes that do not read as an event envelope; retrying cannot help. */
public final class MalformedEventException extends RuntimeException {

  public MalformedEventException(String message, Throwable cause) {
    super(message, cause);
  }

  public MalformedEventException(String message) {
    super(message);
  }
}
