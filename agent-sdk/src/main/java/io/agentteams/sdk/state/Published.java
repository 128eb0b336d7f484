package io.agentteams.sdk.state;

/**
 * The outcome of a publish.
 *
 * @param created false when the request id had already published this entry (a safe retry)
 * @param entry the entry
 * @param stateRevision the state's revision after it
 */
public record Published(boolean created, StateEntry entry, long stateRevision) {}
