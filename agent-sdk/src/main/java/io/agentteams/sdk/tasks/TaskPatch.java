package io.agentteams.sdk.tasks;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A compare-and-set edit of a task by its owner or the lead; null fields stay as they are.
 *
 * @param expectedRevision the revision last read
 * @param title a new title
 * @param description a new description
 * @param dependencies new dependencies
 * @param writeScopes new write scopes
 * @param status a new explicit status (e.g. cancelled)
 */
public record TaskPatch(
    long expectedRevision,
    @Nullable String title,
    @Nullable String description,
    @Nullable List<Long> dependencies,
    @Nullable List<String> writeScopes,
    @Nullable String status) {}
