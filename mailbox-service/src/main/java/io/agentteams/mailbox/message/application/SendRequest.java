package io.agentteams.mailbox.message.application;

import org.jspecify.annotations.Nullable;

/**
 * What a caller asks to send. The sender is never part of it: it comes from the caller's identity.
 *
 * @param to the recipient of a direct message
 * @param broadcast whether it goes to every member but the sender
 * @param text the text
 * @param clientMessageId the caller's idempotency key for retries
 * @param systemKind for system messages (services only): what the message reports
 * @param jobId for system messages (services only): the job it concerns
 */
public record SendRequest(
    @Nullable String to,
    boolean broadcast,
    @Nullable String text,
    @Nullable String clientMessageId,
    @Nullable String systemKind,
    @Nullable String jobId) {}
