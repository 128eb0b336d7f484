package io.agentteams.mailbox.message.web;

import io.agentteams.mailbox.message.application.InboxPage;
import io.agentteams.mailbox.message.application.InboxReading;
import io.agentteams.platform.identity.Caller;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code GET /api/v1/teams/{teamId}/inbox}: a member reads what is new since its last read, or
 * re-reads from {@code after} (an inbox sequence it was given).
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
      @RequestParam(required = false) @Nullable Integer limit) {
    return inbox.read(member, teamId, after, limit);
  }
}
