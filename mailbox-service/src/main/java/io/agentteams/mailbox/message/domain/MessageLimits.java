package io.agentteams.mailbox.message.domain;

import io.agentteams.platform.bounds.TextBound;

/**
 * The limits a message must keep, from configuration.
 *
 * @param text the message text's bound
 * @param clientMessageId the bound of a sender's idempotency key
 */
public record MessageLimits(TextBound text, TextBound clientMessageId) {

  /** Text 4,000 characters / 8,000 bytes; client message ids 200 characters. */
  public static MessageLimits defaults() {
    return new MessageLimits(
        new TextBound("mailbox.message", 4000, 8000),
        new TextBound("mailbox.client-message-id", 200, 800));
  }
}
