package io.agentteams.sdk.state;

/**
 * The outcome of an update.
 *
 * @param updated whether it changed the entry
 * @param conflict true when the expected revision was stale; {@code entry} is then the current one
 * @param entry the entry as it is now
 * @param stateRevision the state's revision
 */
public record Updated(boolean updated, boolean conflict, StateEntry entry, long stateRevision) {}
