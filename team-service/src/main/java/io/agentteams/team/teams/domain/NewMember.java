package io.agentteams.team.teams.domain;

import org.jspecify.annotations.Nullable;

/** A member as requested when a team is created: its name, the agent it binds, lead or not. */
public record NewMember(@Nullable String name, @Nullable String agentId, boolean lead) {}
