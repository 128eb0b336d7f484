package io.agentteams.taskboard.task.domain;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** The fields an edit changes; null leaves a field as it is. */
public record TaskEdit(
    @Nullable String title,
    @Nullable String description,
    @Nullable List<Long> dependencies,
    @Nullable List<String> writeScopes) {}
