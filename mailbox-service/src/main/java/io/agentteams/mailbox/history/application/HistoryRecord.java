package io.agentteams.mailbox.history.application;

import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.platform.bounds.Utf8Truncation;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One message of the shared record as the API shows it. The text is data from its sender.
 *
 * @param messageId the message
 * @param sequence its position in the team's record
 * @param sentAt when it was sent
 * @param kind {@code direct} or {@code broadcast}
 * @param senderKind {@code member}, {@code owner} or {@code system}
 * @param sender the sending member, {@code owner} or {@code system}
 * @param systemKind what a system message reports
 * @param recipients the members it went to
 * @param jobId the job the sender acted in
 * @param conversationId the sending member's conversation
 * @param text the text, cut to the text budget
 * @param truncated whether the text was cut
 */
public record HistoryRecord(
    UUID messageId,
    long sequence,
    Instant sentAt,
    String kind,
    String senderKind,
    String sender,
    @Nullable String systemKind,
    List<String> recipients,
    @Nullable String jobId,
    @Nullable String conversationId,
    String text,
    boolean truncated) {

  /** The record of a message with its text cut to {@code maxTextBytes}. */
  static HistoryRecord of(Message.Recorded recorded, int maxTextBytes) {
    Message m = recorded.message();
    Utf8Truncation.Cut text = Utf8Truncation.cut(m.text(), maxTextBytes);
    return new HistoryRecord(
        m.id(),
        recorded.sequence(),
        recorded.sentAt(),
        m.kind().wire(),
        m.sender().kind().wire(),
        m.sender().name(),
        m.systemKind() == null ? null : m.systemKind().wire(),
        m.recipients(),
        m.jobId(),
        m.conversationId(),
        text.text(),
        text.truncated());
  }

  HistoryRecord withText(String cut) {
    return new HistoryRecord(
        messageId,
        sequence,
        sentAt,
        kind,
        senderKind,
        sender,
        systemKind,
        recipients,
        jobId,
        conversationId,
        cut,
        true);
  }
}
