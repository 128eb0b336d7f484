package io.agentteams.team.state.domain;

/**
 * What an update did.
 *
 * @param entry the entry as it now stands (the current one on a conflict)
 * @param updated whether the caller's change is in effect
 * @param conflict whether the expected revision was stale
 * @param changed whether this call made a new revision (false for an identical retry)
 */
public record Updated(Entry entry, boolean updated, boolean conflict, boolean changed) {}
