package io.agentteams.scheduler.job.web;

import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.AccessPolicy.CallerKind;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.WebProblems;
import io.agentteams.scheduler.job.application.JobCommands;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/v1/jobs/{jobId}}: the owner reads, answers and cancels a job; {@code
 * /api/v1/teams/{teamId}/jobs/{jobId}/interrupt}: the team's lead (or its owner) interrupts a
 * member's job.
 */
@RestController
public class JobController {

  /** Only the member a job runs as may ask after it; anyone else is told it is not found. */
  private static final AccessPolicy JOB_MEMBER = AccessPolicy.admitting(CallerKind.MEMBER);

  private final JobCommands commands;
  private final JsonMapper json;
  private final TeamAccess access;

  public JobController(JobCommands commands, JsonMapper json, TeamAccess access) {
    this.commands = commands;
    this.json = json;
    this.access = access;
  }

  @GetMapping("/api/v1/jobs/{jobId}")
  public Mono<JobView> get(Caller.Owner owner, @PathVariable UUID jobId) {
    return commands.find(owner, jobId).map(job -> JobView.of(job, json));
  }

  /**
   * Whether the calling member's job is still live under the caller's lease: the gateway asks on
   * every use of a job-scoped member token, as the member the token names (its job and lease). The
   * job must be the caller's own (its owner, team and member); any other job, or none, is not
   * found. It is live only while the lease the token was minted under is the job's current one and
   * the job has not ended: a token of an earlier offer, or of none, is not.
   */
  @GetMapping("/api/internal/v1/jobs/{jobId}/liveness")
  public Mono<Liveness> liveness(Caller.Member member, @PathVariable UUID jobId) {
    return commands
        .find(new Caller.Owner(member.ownerId()), jobId)
        .filter(
            job ->
                access
                    .screenAs(member, job.spec().teamId(), job.spec().target().name(), JOB_MEMBER)
                    .isEmpty())
        .map(
            job ->
                new Liveness(
                    jobId,
                    jobId.equals(member.jobId())
                        && member.lease() != null
                        && job.liveUnder(member.lease())))
        .switchIfEmpty(Mono.error(() -> WebProblems.notFound("job", jobId)));
  }

  /**
   * Whether a member's job is live.
   *
   * @param jobId the job
   * @param live false once it has ended (completed, failed, cancelled, interrupted) or the caller's
   *     lease is no longer its current one
   */
  public record Liveness(UUID jobId, boolean live) {}

  /** Answers a clarification with {@code text}, or an interrupt with a JSON {@code response}. */
  @PostMapping("/api/v1/jobs/{jobId}/answer")
  public Mono<JobView> answer(
      Caller.Owner owner, @PathVariable UUID jobId, @RequestBody Mono<AnswerRequest> request) {
    // Another owner's job is not found before the body is read.
    return commands
        .find(owner, jobId)
        .then(request)
        .flatMap(
            body -> {
              String response =
                  body.response() == null ? null : json.writeValueAsString(body.response());
              return commands.answer(owner, jobId, body.text(), response);
            })
        .map(job -> JobView.of(job, json));
  }

  @PostMapping("/api/v1/jobs/{jobId}/cancel")
  public Mono<JobView> cancel(Caller.Owner owner, @PathVariable UUID jobId) {
    return commands.cancel(owner, jobId).map(job -> JobView.of(job, json));
  }

  /**
   * Stops the job's turn: it ends {@code interrupted} and its runtime is told (a pull worker gets
   * an {@code interrupt} event on its job stream, an A2A agent a CancelTask, a webhook agent no
   * further push). Only the team's lead or its owner; repeating it answers the interrupted job.
   */
  @PostMapping("/api/v1/teams/{teamId}/jobs/{jobId}/interrupt")
  public Mono<JobView> interrupt(
      Caller caller, @PathVariable UUID teamId, @PathVariable UUID jobId) {
    return commands.interrupt(caller, teamId, jobId).map(job -> JobView.of(job, json));
  }

  /** An answer: text for a clarification or a JSON response for an interrupt. */
  public record AnswerRequest(@Nullable String text, @Nullable JsonNode response) {}
}
