package io.agentteams.sdk.messages;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A message as the mailbox accepted it.
 *
 * @param messageId its stable id
 * @param teamId its team
 * @param sequence its place in the team's record
 * @param kind direct or broadcast
 * @param senderKind member, owner or system
 * @param sender who sent it
 * @param clientMessageId the sender's idempotency key, if it gave one
 * @param sentAt when
 * @param recipients one delivery per recipient
 * @param replayed true when a retry with the same client message id returned the first send
 */
public record SentMessage(
    UUID messageId,
    UUID teamId,
    long sequence,
    String kind,
    String senderKind,
    String sender,
    @Nullable String clientMessageId,
    Instant sentAt,
    List<Recipient> recipients,
    boolean replayed) {

  /**
   * One recipient's delivery.
   *
   * @param member the recipient
   * @param sequence the message's place in that recipient's inbox
   * @param status queued, delivered or read
   */
  public record Recipient(String member, long sequence, String status) {}
}
