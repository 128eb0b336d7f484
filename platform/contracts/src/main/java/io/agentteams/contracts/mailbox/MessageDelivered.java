package io.agentteams.contracts.mailbox;

import io.agentteams.contracts.EventPayload;

/**
 * A queued delivery reached its recipient's inbox: the acknowledgement of one recipient's copy of a
 * message. The envelope's sequence is {@code sequence}.
 *
 * @param messageId the message
 * @param teamId its team
 * @param recipient the member whose inbox now holds it
 * @param sequence the message's position in that inbox
 * @param queuedAt ISO-8601 instant the delivery was queued
 * @param deliveredAt ISO-8601 instant it was delivered
 */
public record MessageDelivered(
    String messageId,
    String teamId,
    String recipient,
    long sequence,
    String queuedAt,
    String deliveredAt)
    implements EventPayload {

  public static final String TYPE = "MessageDelivered";

  @Override
  public String eventType() {
    return TYPE;
  }
}
