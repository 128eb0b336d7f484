package io.agentteams.contracts.mailbox;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/**
 * A member read messages of its inbox for the first time. The envelope's sequence is {@code
 * readSequence}.
 *
 * @param teamId the team
 * @param member the reader
 * @param messageIds the messages now read, oldest first
 * @param readSequence the member's read cursor after this read: every message at or below it was
 *     returned once
 * @param readAt ISO-8601 instant of the read
 */
public record MessageRead(
    String teamId, String member, List<String> messageIds, long readSequence, String readAt)
    implements EventPayload {

  public static final String TYPE = "MessageRead";

  public MessageRead {
    messageIds = List.copyOf(messageIds);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
