package io.agentteams.mailbox.message.web;

import io.agentteams.mailbox.message.application.MessageSending;
import io.agentteams.mailbox.message.application.SendRequest;
import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.mailbox.message.persistence.MessageStore;
import io.agentteams.platform.identity.Caller;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code POST /api/v1/teams/{teamId}/messages}: a member, the owner or a service sends a direct
 * message or a broadcast. 201 for a new message, 200 for a retry with the same client message id.
 */
@RestController
public class MessageController {

  private final MessageSending sending;

  public MessageController(MessageSending sending) {
    this.sending = sending;
  }

  @PostMapping("/api/v1/teams/{teamId}/messages")
  public Mono<ResponseEntity<SentView>> send(
      Caller caller, @PathVariable UUID teamId, @RequestBody Mono<SendBody> request) {
    return sending
        .admit(caller, teamId)
        .then(request)
        .flatMap(
            body ->
                sending.send(
                    caller,
                    teamId,
                    new SendRequest(
                        body.to(),
                        Boolean.TRUE.equals(body.broadcast()),
                        body.text(),
                        body.clientMessageId(),
                        body.systemKind(),
                        body.jobId())))
        .map(
            sent ->
                ResponseEntity.status(sent.replayed() ? HttpStatus.OK : HttpStatus.CREATED)
                    .body(SentView.of(sent)));
  }

  /**
   * The body of a send. There is no sender field: the sender is the caller.
   *
   * @param to the recipient of a direct message
   * @param broadcast true to write to every member but the sender
   * @param text the text
   * @param clientMessageId an idempotency key for retries
   * @param systemKind services only: what a system message reports
   * @param jobId services only: the job a system message concerns
   */
  public record SendBody(
      @Nullable String to,
      @Nullable Boolean broadcast,
      @Nullable String text,
      @Nullable String clientMessageId,
      @Nullable String systemKind,
      @Nullable String jobId) {}

  /** A sent message as the API shows it. */
  public record SentView(
      UUID messageId,
      UUID teamId,
      long sequence,
      String kind,
      String senderKind,
      String sender,
      @Nullable String systemKind,
      @Nullable String jobId,
      @Nullable String conversationId,
      @Nullable String clientMessageId,
      Instant sentAt,
      List<RecipientView> recipients,
      boolean replayed) {

    static SentView of(MessageSending.Sent sent) {
      Message m = sent.queued().recorded().message();
      return new SentView(
          m.id(),
          m.teamId(),
          sent.queued().recorded().sequence(),
          m.kind().wire(),
          m.sender().kind().wire(),
          m.sender().name(),
          m.systemKind() == null ? null : m.systemKind().wire(),
          m.jobId(),
          m.conversationId(),
          m.clientMessageId(),
          sent.queued().recorded().sentAt(),
          sent.queued().recipients().stream().map(RecipientView::of).toList(),
          sent.replayed());
    }
  }

  /**
   * One recipient's copy.
   *
   * @param member the recipient
   * @param sequence the message's position in its inbox
   * @param status {@code queued}, {@code delivered} or {@code read}
   */
  public record RecipientView(String member, long sequence, String status) {

    static RecipientView of(MessageStore.Queued.Recipient recipient) {
      return new RecipientView(recipient.member(), recipient.sequence(), recipient.status());
    }
  }
}
