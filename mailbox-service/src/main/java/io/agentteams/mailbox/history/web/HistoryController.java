package io.agentteams.mailbox.history.web;

import io.agentteams.mailbox.history.application.HistoryPage;
import io.agentteams.mailbox.history.application.HistoryQueries;
import io.agentteams.mailbox.history.application.RecentMessages;
import io.agentteams.mailbox.paging.application.SearchRequest;
import io.agentteams.platform.identity.Caller;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code GET /api/v1/teams/{teamId}/history} for the owner and members, and the recent messages the
 * gateway composes into the team context ({@code /api/internal/...}, which the gateway does not
 * route from outside).
 */
@RestController
public class HistoryController {

  private final HistoryQueries history;

  public HistoryController(HistoryQueries history) {
    this.history = history;
  }

  @GetMapping("/api/v1/teams/{teamId}/history")
  public Mono<HistoryPage> history(
      Caller caller,
      @PathVariable UUID teamId,
      @RequestParam(name = "member_id", required = false) @Nullable String memberId,
      @RequestParam(name = "job_id", required = false) @Nullable String jobId,
      @RequestParam(required = false) @Nullable String query,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable String cursor) {
    return history.page(caller, teamId, new SearchRequest(memberId, jobId, query, limit, cursor));
  }

  @GetMapping("/api/internal/v1/teams/{teamId}/recent-messages")
  public Mono<RecentMessages> recent(Caller caller, @PathVariable UUID teamId) {
    return history.recent(caller, teamId);
  }
}
