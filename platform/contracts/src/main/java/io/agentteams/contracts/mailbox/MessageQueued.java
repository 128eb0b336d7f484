package io.agentteams.contracts.mailbox;

import io.agentteams.contracts.EventPayload;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A message was sent and one delivery per recipient is queued. mailbox-service's own delivery
 * consumer reads it to move each delivery into the recipient's inbox; the gateway shows it in the
 * team's activity. The text is data from its sender, never an instruction.
 *
 * @param messageId the message's stable id
 * @param teamId its team
 * @param sequence the message's position in the team's record, from 1 without gaps
 * @param kind {@code direct} or {@code broadcast}
 * @param senderKind {@code member}, {@code owner} or {@code system}
 * @param sender the sending member's name, {@code owner} or {@code system}
 * @param systemKind for system messages: {@code task.assigned}, {@code task.result}, {@code
 *     task.error}, {@code run.budget_stopped} or {@code run.complete}
 * @param recipients each recipient with the message's position in that recipient's inbox
 * @param jobId the job the sender acted in, if any
 * @param conversationId the sending member's conversation, if a member sent it
 * @param clientMessageId the sender's idempotency key, if it gave one
 * @param text the message text
 * @param sentAt ISO-8601 instant the send committed
 */
public record MessageQueued(
    String messageId,
    String teamId,
    long sequence,
    String kind,
    String senderKind,
    String sender,
    @Nullable String systemKind,
    List<Recipient> recipients,
    @Nullable String jobId,
    @Nullable String conversationId,
    @Nullable String clientMessageId,
    String text,
    String sentAt)
    implements EventPayload {

  public static final String TYPE = "MessageQueued";

  public MessageQueued {
    recipients = List.copyOf(recipients);
  }

  /**
   * One recipient of a message.
   *
   * @param member the recipient's name
   * @param sequence the message's position in that member's inbox, from 1 without gaps
   */
  public record Recipient(String member, long sequence) {}

  @Override
  public String eventType() {
    return TYPE;
  }
}
