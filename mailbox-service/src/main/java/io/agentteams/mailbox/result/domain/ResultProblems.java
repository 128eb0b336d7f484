package io.agentteams.mailbox.result.domain;

import io.agentteams.platform.problem.DomainFailure;

/** The named refusals of result records. */
public final class ResultProblems {

  private ResultProblems() {}

  /** The team has no result record of that job. */
  public static DomainFailure resultNotFound(String jobId) {
    return DomainFailure.notFound("result", jobId);
  }
}
