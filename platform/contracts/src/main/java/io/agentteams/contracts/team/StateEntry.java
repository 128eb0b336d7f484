package io.agentteams.contracts.team;

import org.jspecify.annotations.Nullable;

/**
 * A public state entry as other services see it.
 *
 * @param id team-local, allocated in order and never reused
 * @param kind {@code objective}, {@code plan}, {@code finding}, {@code question} or {@code
 *     requirement}; immutable
 * @param title the title
 * @param content the content
 * @param status {@code active} or {@code archived}
 * @param createdBy the member that published it, or {@code owner} for the team's owner; immutable
 * @param createdAt ISO-8601 instant of the publish
 * @param updatedBy the member that changed it last, or {@code owner}
 * @param updatedAt ISO-8601 instant of the last change
 * @param sourceConversationId the last author's conversation; empty when that was the owner
 * @param sourceJobId the job the last author acted in, if its token named one
 * @param revision the entry's revision, starting at 1
 */
public record StateEntry(
    long id,
    String kind,
    String title,
    String content,
    String status,
    String createdBy,
    String createdAt,
    String updatedBy,
    String updatedAt,
    String sourceConversationId,
    @Nullable String sourceJobId,
    long revision) {}
