package io.agentteams.mailbox.paging.application;

import org.jspecify.annotations.Nullable;

/**
 * What a client asks of a search, as it asked it.
 *
 * @param memberId only records of this member
 * @param jobId only records of this job (and the jobs it handed off)
 * @param query only records whose text holds this, ignoring case
 * @param limit records per page, 1 to the maximum (the default without one)
 * @param cursor the previous page's {@code next_cursor}, issued for the same filters
 */
public record SearchRequest(
    @Nullable String memberId,
    @Nullable String jobId,
    @Nullable String query,
    @Nullable Integer limit,
    @Nullable String cursor) {}
