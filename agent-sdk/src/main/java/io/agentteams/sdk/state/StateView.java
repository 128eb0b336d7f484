package io.agentteams.sdk.state;

import java.util.List;

/**
 * Entries of a team's public state.
 *
 * @param stateRevision the state's revision as a whole
 * @param entries the entries that matched
 */
public record StateView(long stateRevision, List<StateEntry> entries) {}
