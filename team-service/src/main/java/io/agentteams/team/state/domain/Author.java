package io.agentteams.team.state.domain;

import org.jspecify.annotations.Nullable;

/**
 * Who writes an entry, as the service knows it from the caller's verified identity and the roster,
 * never from the request body.
 *
 * @param member the member's name
 * @param conversationId the member's conversation
 * @param jobId the job the member's token was minted for, if any
 */
public record Author(String member, String conversationId, @Nullable String jobId) {}
