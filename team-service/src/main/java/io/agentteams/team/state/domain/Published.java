package io.agentteams.team.state.domain;

/**
 * What a publish did.
 *
 * @param entry the entry now stored
 * @param created false when this was a retry and the existing entry was returned
 */
public record Published(Entry entry, boolean created) {}
