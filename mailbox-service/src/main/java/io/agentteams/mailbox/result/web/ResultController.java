package io.agentteams.mailbox.result.web;

import io.agentteams.mailbox.paging.application.SearchRequest;
import io.agentteams.mailbox.result.application.ResultQueries;
import io.agentteams.mailbox.result.application.ResultViews;
import io.agentteams.platform.identity.Caller;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code GET /api/v1/teams/{teamId}/results} (search) and {@code /results/{jobId}} (one result),
 * for the owner and members.
 */
@RestController
public class ResultController {

  private final ResultQueries results;

  public ResultController(ResultQueries results) {
    this.results = results;
  }

  @GetMapping("/api/v1/teams/{teamId}/results")
  public Mono<ResultViews.Page> search(
      Caller caller,
      @PathVariable UUID teamId,
      @RequestParam(name = "member_id", required = false) @Nullable String memberId,
      @RequestParam(name = "job_id", required = false) @Nullable String jobId,
      @RequestParam(required = false) @Nullable String query,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable String cursor) {
    return results.search(caller, teamId, new SearchRequest(memberId, jobId, query, limit, cursor));
  }

  @GetMapping("/api/v1/teams/{teamId}/results/{jobId}")
  public Mono<ResultViews.Detail> read(
      Caller caller, @PathVariable UUID teamId, @PathVariable String jobId) {
    return results.read(caller, teamId, jobId);
  }
}
