package io.agentteams.mailbox.message.persistence;

import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.mailbox.message.domain.MessageKind;
import io.agentteams.mailbox.message.domain.Sender;
import io.agentteams.mailbox.message.domain.SenderKind;
import io.agentteams.mailbox.message.domain.SystemKind;
import io.r2dbc.spi.Readable;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** Reads a {@code message} row (columns as {@link #COLUMNS} names them). */
public final class MessageRows {

  /** The columns {@link #recorded} reads, qualified with the alias {@code m}. */
  public static final String COLUMNS =
      "m.id, m.team_id, m.owner_id, m.seq, m.kind, m.sender_kind, m.sender, m.system_kind,"
          + " m.recipients, m.job_id, m.conversation_id, m.client_message_id, m.text, m.sent_at";

  private MessageRows() {}

  /** The message of a row. */
  public static Message.Recorded recorded(Readable row) {
    SenderKind senderKind = SenderKind.fromWire(row.get("sender_kind", String.class));
    String senderName = row.get("sender", String.class);
    String systemKind = row.get("system_kind", String.class);
    String[] recipients = row.get("recipients", String[].class);
    Message message =
        new Message(
            row.get("id", UUID.class),
            row.get("team_id", UUID.class),
            row.get("owner_id", String.class),
            MessageKind.fromWire(row.get("kind", String.class)),
            new Sender(senderKind, senderName),
            systemKind == null ? null : SystemKind.fromWire(systemKind),
            recipients == null ? List.of() : List.of(recipients),
            row.get("job_id", String.class),
            row.get("conversation_id", String.class),
            row.get("client_message_id", String.class),
            row.get("text", String.class));
    return new Message.Recorded(
        message, row.get("seq", Long.class), row.get("sent_at", OffsetDateTime.class).toInstant());
  }
}
