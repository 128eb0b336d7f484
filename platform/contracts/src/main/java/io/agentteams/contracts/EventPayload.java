package io.agentteams.contracts;

/**
 * The data of one event. Its type name and schema version travel in the envelope; consumers that do
 * not know a type skip it, and consumers read the fields they know (tolerant reader).
 */
public interface EventPayload {

  /** The event's type name on the wire, e.g. {@code TeamCreated}. */
  String eventType();

  /** The version of this payload's schema; raised when a field changes meaning. */
  default int schemaVersion() {
    return 1;
  }
}
