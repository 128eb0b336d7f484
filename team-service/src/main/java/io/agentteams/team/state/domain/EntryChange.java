package io.agentteams.team.state.domain;

import org.jspecify.annotations.Nullable;

/**
 * What an update asks to change; an absent field stays as it is. Kind may be repeated but not
 * changed.
 */
public record EntryChange(
    @Nullable String kind,
    @Nullable String title,
    @Nullable String content,
    @Nullable String status) {}
