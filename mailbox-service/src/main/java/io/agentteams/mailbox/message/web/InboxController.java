package io.agentteams.mailbox.message.web;

import io.agentteams.mailbox.message.application.InboxPage;
import io.agentteams.mailbox.message.application.InboxReading;
import io.agentteams.platform.identity.Caller;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code GET /api/v1/teams/{teamId}/inbox}: a member reads what is new (leasing it, and
 * acknowledging its previous read with {@code ack}), or re-reads from {@code after} (an inbox
 * sequence it was given); {@code POST .../inbox/ack} acknowledges a read without reading more.
 */
@RestController
public class InboxController {

  private final InboxReading inbox;

  public InboxController(InboxReading inbox) {
    this.inbox = inbox;
  }

  @GetMapping("/api/v1/teams/{teamId}/inbox")
  public Mono<InboxPage> read(
      Caller.Member member,
      @PathVariable UUID teamId,
      @RequestParam(required = false) @Nullable Long after,
      @RequestParam(required = false) @Nullable String ack,
      @RequestParam(required = false) @Nullable Integer limit) {
    return inbox.read(member, teamId, after, ack, limit);
  }

  @PostMapping("/api/v1/teams/{teamId}/inbox/ack")
  public Mono<InboxReading.Acknowledged> acknowledge(
      Caller.Member member, @PathVariable UUID teamId, @RequestBody Mono<AckRequest> request) {
    // The caller is admitted before the body is read: the same not-found whatever is sent.
    return inbox
        .admit(member, teamId)
        .then(request)
        .flatMap(body -> inbox.acknowledge(member, teamId, body.leaseId()));
  }

  /**
   * The body of an acknowledgement.
   *
   * @param leaseId the {@code lease_id} of the read to acknowledge
   */
  public record AckRequest(@Nullable String leaseId) {}
}
