package io.agentteams.contracts.mailbox;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/**
 * Queued copies reached their recipient's inbox: the acknowledgement of delivery. One event covers
 * the copies one delivery step moved for one recipient, in inbox order; the envelope's sequence is
 * {@code deliveredUpTo}.
 *
 * @param teamId the team
 * @param recipient the member whose inbox now holds them
 * @param copies the copies delivered, oldest first
 * @param deliveredUpTo every copy of this recipient up to this inbox sequence is now delivered
 */
public record MessageDelivered(
    String teamId, String recipient, List<Copy> copies, long deliveredUpTo)
    implements EventPayload {

  public static final String TYPE = "MessageDelivered";

  public MessageDelivered {
    copies = List.copyOf(copies);
  }

  /**
   * One delivered copy.
   *
   * @param messageId the message
   * @param sequence its position in the recipient's inbox
   * @param queuedAt ISO-8601 instant the send queued it
   * @param deliveredAt ISO-8601 instant it was delivered
   */
  public record Copy(String messageId, long sequence, String queuedAt, String deliveredAt) {}

  @Override
  public String eventType() {
    return TYPE;
  }
}
