package io.agentteams.scheduler.job.domain;

import io.agentteams.platform.problem.ProblemException;
import java.util.Map;
import java.util.UUID;

/** The named refusals of job transitions. */
public final class JobProblems {

  private JobProblems() {}

  /** A report carried a lease token that is not the job's current one. */
  public static ProblemException staleLease(UUID jobId) {
    return new ProblemException(
        ProblemException.Kind.CONFLICT,
        "stale-lease",
        "job " + jobId + " is leased under another token; this report is refused",
        Map.of("job_id", jobId.toString()));
  }

  /** A change that the job's state does not allow. */
  public static ProblemException wrongState(UUID jobId, JobState state, String what) {
    String code = state.finished() ? "job-finished" : "job-state-conflict";
    return new ProblemException(
        ProblemException.Kind.CONFLICT,
        code,
        "job " + jobId + " is " + state.wire() + " and cannot " + what,
        Map.of("job_id", jobId.toString(), "state", state.wire()));
  }
}
