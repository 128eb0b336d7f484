package io.agentteams.sdk.state;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a team's public state. Who created it, who changed it last and from where are
 * stamped by the service, never taken from the caller.
 *
 * @param id the entry
 * @param kind objective, plan, finding, question or requirement (never changes)
 * @param title its title
 * @param content its content
 * @param status active or archived
 * @param createdBy the member that published it, or {@code owner} for the team's owner (never
 *     changes)
 * @param createdAt when
 * @param updatedBy the member that changed it last
 * @param updatedAt when
 * @param sourceConversationId the conversation of the last change (empty when the owner made it)
 * @param sourceJobId the job of the last change, if it came from one
 * @param revision increases with every change (compare-and-set updates name it)
 */
public record StateEntry(
    long id,
    String kind,
    String title,
    String content,
    String status,
    String createdBy,
    Instant createdAt,
    String updatedBy,
    Instant updatedAt,
    String sourceConversationId,
    @Nullable String sourceJobId,
    long revision) {}
