package io.agentteams.sdk.messages;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A page of the team's shared message record, newest first.
 *
 * @param teamId the team
 * @param records the records
 * @param nextCursor pass it, with the same filters, for the next (older) page; null on the last
 * @param cursorExpired true when the cursor's anchor left retention (the page is then empty)
 */
public record HistoryPage(
    UUID teamId, List<Record> records, @Nullable String nextCursor, boolean cursorExpired) {

  /**
   * One message in the shared record.
   *
   * @param messageId the message
   * @param sequence its place in the record
   * @param sentAt when
   * @param kind direct, broadcast or system
   * @param senderKind member, owner or system
   * @param sender who sent it
   * @param systemKind for system messages: what they report
   * @param recipients who received it
   * @param jobId the job it came from, if any
   * @param conversationId the sender's conversation, if any
   * @param text its text
   * @param truncated whether the text was cut
   */
  public record Record(
      UUID messageId,
      long sequence,
      Instant sentAt,
      String kind,
      @Nullable String senderKind,
      String sender,
      @Nullable String systemKind,
      List<String> recipients,
      @Nullable String jobId,
      @Nullable String conversationId,
      String text,
      boolean truncated) {}
}
