package io.agentteams.team.agents.domain;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** An agent's fields as a caller asks to register or replace them, not yet checked. */
public record AgentDraft(
    @Nullable String name,
    @Nullable String description,
    @Nullable String runtimeKind,
    @Nullable String endpoint,
    @Nullable List<String> toolGroups) {}
