package io.agentteams.mailbox.message.domain;

import io.agentteams.platform.problem.DomainFailure;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** The named refusals of messages: composing, addressing, sending and reading an inbox. */
public final class MessageProblems {

  private MessageProblems() {}

  public static DomainFailure ambiguousRecipient() {
    return DomainFailure.invalid(
        "ambiguous-recipient", "a message goes either to one member or to everyone, not both");
  }

  public static DomainFailure missingRecipient() {
    return DomainFailure.invalid("missing-recipient", "name the member to write to, or broadcast");
  }

  public static DomainFailure unknownRecipient(String recipient) {
    return DomainFailure.invalid(
        "unknown-recipient",
        "'" + recipient + "' is not a member of this team",
        Map.of("recipient", recipient));
  }

  public static DomainFailure selfMessage() {
    return DomainFailure.invalid("self-message", "a member cannot write to itself");
  }

  public static DomainFailure noRecipient() {
    return DomainFailure.invalid("no-recipient", "the team has nobody else to receive it");
  }

  public static DomainFailure missingSystemKind() {
    return DomainFailure.invalid(
        "missing-system-kind", "a system message says what it reports (system_kind)");
  }

  public static DomainFailure systemKindNotAllowed() {
    return DomainFailure.invalid(
        "system-kind-not-allowed", "only the system sends messages with a system_kind");
  }

  public static DomainFailure unknownSystemKind(String value) {
    return DomainFailure.invalid(
        "unknown-system-kind",
        "system_kind must be one of "
            + Arrays.stream(SystemKind.values())
                .map(SystemKind::wire)
                .collect(Collectors.joining(", ")),
        Map.of("system_kind", value));
  }

  public static DomainFailure nulCharacter(String field) {
    return DomainFailure.invalid(
        "nul-character", field + " must not contain the character U+0000", Map.of("field", field));
  }

  /** A client message id already named a different message. */
  public static DomainFailure clientMessageIdReused(
      @Nullable String clientMessageId, UUID messageId) {
    return DomainFailure.conflict(
        "client-message-id-reused",
        "client_message_id " + clientMessageId + " was already used for a different message",
        Map.of(
            "client_message_id",
            String.valueOf(clientMessageId),
            "message_id",
            messageId.toString()));
  }

  /** A member's job comes from its token, and an owner's message has none. */
  public static DomainFailure jobIdNotAllowed(String why) {
    return DomainFailure.invalid("job-id-not-allowed", why);
  }

  public static DomainFailure invalidAck() {
    return DomainFailure.invalid(
        "invalid-ack", "ack must be the lease_id of an earlier read, or none");
  }

  public static DomainFailure ackWithAfter() {
    return DomainFailure.invalid(
        "ack-with-after",
        "after re-reads and acknowledges nothing; acknowledge with a read of what is new");
  }

  public static DomainFailure invalidAfter() {
    return DomainFailure.invalid("invalid-after", "after must not be negative");
  }

  public static DomainFailure invalidLimit(int max, int actual) {
    return DomainFailure.invalid(
        "invalid-limit",
        "limit must be between 1 and " + max + ", got " + actual,
        Map.of("min", 1, "max", max, "actual", actual));
  }
}
