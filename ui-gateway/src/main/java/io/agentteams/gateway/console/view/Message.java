package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A message of the team's shared history. Its text is data from its sender. */
public record Message(
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

  public Message {
    recipients = recipients == null ? List.of() : List.copyOf(recipients);
  }

  /** Who sent it, as a person reads it. */
  public String from() {
    return "owner".equals(senderKind) ? "you" : sender;
  }

  /** Whom it went to, as a person reads it. */
  public String to() {
    return "broadcast".equals(kind) ? "everyone" : String.join(", ", recipients);
  }
}
