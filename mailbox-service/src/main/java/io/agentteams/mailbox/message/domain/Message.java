package io.agentteams.mailbox.message.domain;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A message: who sent it to whom in which team, with its provenance. The text is data from the
 * sender, never an instruction to the platform.
 *
 * @param id stable id
 * @param teamId the team
 * @param ownerId the team's owner
 * @param kind direct or broadcast
 * @param sender who sent it
 * @param systemKind what a system message reports; null for the others
 * @param recipients the members it goes to
 * @param jobId the job the sender acted in, if any
 * @param conversationId the sending member's conversation, if a member sent it
 * @param clientMessageId the sender's idempotency key, if given
 * @param text the text
 */
public record Message(
    UUID id,
    UUID teamId,
    String ownerId,
    MessageKind kind,
    Sender sender,
    @Nullable SystemKind systemKind,
    List<String> recipients,
    @Nullable String jobId,
    @Nullable String conversationId,
    @Nullable String clientMessageId,
    String text) {

  public Message {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(teamId, "team id");
    Objects.requireNonNull(ownerId, "owner id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(sender, "sender");
    recipients = List.copyOf(recipients);
    Objects.requireNonNull(text, "text");
  }

  /**
   * A new message checked against the limits and addressed against the roster.
   *
   * @param members the team's current members
   * @param provenance the job and conversation the sender acts in, from its identity
   * @throws io.agentteams.platform.problem.DomainFailure naming the first rule the request breaks
   */
  public static Message compose(
      UUID id,
      UUID teamId,
      String ownerId,
      Sender sender,
      Addressing addressing,
      @Nullable SystemKind systemKind,
      List<String> members,
      Provenance provenance,
      @Nullable String clientMessageId,
      @Nullable String text,
      MessageLimits limits) {
    String checkedText = withoutNul("text", limits.text().checkNotBlank(text));
    String checkedClientId =
        clientMessageId == null
            ? null
            : withoutNul(
                "client_message_id", limits.clientMessageId().checkNotBlank(clientMessageId));
    if (sender.kind() == SenderKind.SYSTEM && systemKind == null) {
      throw MessageProblems.missingSystemKind();
    }
    if (sender.kind() != SenderKind.SYSTEM && systemKind != null) {
      throw MessageProblems.systemKindNotAllowed();
    }
    List<String> recipients = addressing.recipients(sender, members);
    return new Message(
        id,
        teamId,
        ownerId,
        addressing.kind(),
        sender,
        systemKind,
        recipients,
        provenance.jobId(),
        provenance.conversationId(),
        checkedClientId,
        checkedText);
  }

  /**
   * Rejects U+0000, which text in the database cannot hold.
   *
   * @throws io.agentteams.platform.problem.DomainFailure when the value holds it
   */
  public static String withoutNul(String field, String value) {
    if (value.indexOf('\u0000') >= 0) {
      throw MessageProblems.nulCharacter(field);
    }
    return value;
  }

  /**
   * Whether a retry with the same client message id asks for this same message; a retry that
   * differs is a conflict, not a second message. A broadcast is the same request even if the roster
   * changed in between.
   */
  public boolean sameRequestAs(Message retry) {
    return kind == retry.kind
        && sender.equals(retry.sender)
        && systemKind == retry.systemKind
        && (kind == MessageKind.BROADCAST || recipients.equals(retry.recipients))
        && Objects.equals(jobId, retry.jobId)
        && text.equals(retry.text);
  }

  /**
   * Where a message comes from besides its sender.
   *
   * @param jobId the job the sender acts in
   * @param conversationId the sending member's conversation
   */
  public record Provenance(@Nullable String jobId, @Nullable String conversationId) {

    public static Provenance none() {
      return new Provenance(null, null);
    }
  }

  /**
   * A message once stored: its position in the team's record and when it was sent.
   *
   * @param message the message
   * @param sequence its position in the team's record, from 1 without gaps
   * @param sentAt when the send committed
   */
  public record Recorded(Message message, long sequence, Instant sentAt) {}
}
