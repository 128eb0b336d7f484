package io.agentteams.scheduler.dispatch.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.scheduler.dispatch.application.LeasedDispatch;
import io.agentteams.scheduler.dispatch.application.WorkerEvent;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.Lease;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code POST /api/v1/jobs/{jobId}/events}: a worker reports {@code started}, {@code heartbeat},
 * {@code input_required}, {@code completed}, {@code failed} or {@code released} (it gives the job
 * back, e.g. when it shuts down) under its lease token. A token that a newer offer replaced is
 * refused with 409 {@code stale-lease}; repeating a report is harmless.
 */
@RestController
public class WorkerEventsController {

  private final LeasedDispatch dispatch;

  public WorkerEventsController(LeasedDispatch dispatch) {
    this.dispatch = dispatch;
  }

  @PostMapping("/api/v1/jobs/{jobId}/events")
  public Mono<ReportResponse> report(
      Caller.Worker worker, @PathVariable UUID jobId, @RequestBody Mono<WorkerEvent> request) {
    return dispatch
        .admit(worker, jobId)
        .then(request)
        .map(WorkerEvent::toReport)
        .flatMap(
            report ->
                dispatch
                    .report(worker, jobId, report)
                    .map(job -> ReportResponse.of(job, report.leaseToken(), dispatch)));
  }

  /**
   * The job after the report. While the job is still leased under the report's lease, a fresh
   * member token for that lease comes along so a long run never outlives its token.
   */
  public record ReportResponse(
      UUID jobId,
      String state,
      long revision,
      @Nullable Instant leaseExpiresAt,
      @Nullable String memberToken,
      @Nullable Instant memberTokenExpiresAt) {

    static ReportResponse of(Job job, String leaseToken, LeasedDispatch dispatch) {
      boolean leased = job.state().holdsSlot();
      Lease lease = job.lease();
      LeasedDispatch.MemberToken token = leased ? dispatch.memberToken(job, leaseToken) : null;
      return new ReportResponse(
          job.id(),
          job.state().wire(),
          job.revision(),
          leased && lease != null ? lease.expiresAt() : null,
          token == null ? null : token.token(),
          token == null ? null : token.expiresAt());
    }
  }
}
