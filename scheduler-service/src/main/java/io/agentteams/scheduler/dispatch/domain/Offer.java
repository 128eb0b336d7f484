package io.agentteams.scheduler.dispatch.domain;

import io.agentteams.scheduler.job.domain.Answer;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.Lease;
import io.agentteams.scheduler.job.domain.Question;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A job handed to an agent's runtime under a lease: everything it needs to run the job in the
 * member's conversation and to report back.
 *
 * @param job the job as it was offered
 * @param spec the job's frozen request
 * @param lease the lease the runtime reports under
 * @param reconcile true when an earlier offer's outcome is unknown: the runtime must answer from
 *     its own record of this job id (report what happened, or start it if it never did) rather than
 *     run it blindly a second time
 * @param resumeQuestion for a job resumed after a question: the question
 * @param resumeAnswer for a job resumed after a question: the owner's answer
 * @param teamContext where the member reads its team's context
 * @param memberToken a short-lived token that acts as this member, within this job
 * @param memberTokenExpiresAt when that token expires
 * @param previousHolder on a reconciliation offer, the worker whose lease lapsed (when known): a
 *     worker that finds its own id here and has no record of the job knows it never received it
 */
public record Offer(
    Job job,
    JobSpec spec,
    Lease lease,
    boolean reconcile,
    @Nullable Question resumeQuestion,
    @Nullable Answer resumeAnswer,
    String teamContext,
    String memberToken,
    Instant memberTokenExpiresAt,
    @Nullable String previousHolder) {

  /**
   * Whether a runtime reported the job started since it was last admitted. A runtime reports {@code
   * started} before it acts on a job, so a reconciliation offer of a job that never started was
   * never acted on: the runtime may simply run it.
   */
  public boolean previouslyStarted() {
    return job.startedAt() != null
        && job.admittedAt() != null
        && !job.startedAt().isBefore(job.admittedAt());
  }

  public Offer {
    Objects.requireNonNull(job);
    Objects.requireNonNull(spec);
    Objects.requireNonNull(lease);
  }

  /** The path of a team's context, which the offer references rather than copies. */
  public static String teamContextPath(JobSpec spec) {
    return "/api/v1/teams/" + spec.teamId() + "/context";
  }
}
