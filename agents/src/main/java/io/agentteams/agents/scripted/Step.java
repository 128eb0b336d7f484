package io.agentteams.agents.scripted;

import io.agentteams.sdk.worker.JobResult;
import java.util.Optional;

/**
 * One step of a script. A step must be idempotent: running the job's script again (after a question
 * was answered, or to reconcile a lost run) must not write anything twice. {@link Steps} has the
 * ones the reference scripts use; a test may add its own.
 */
@FunctionalInterface
public interface Step {

  /**
   * Does the step.
   *
   * @return empty to go on with the next step, or how the run ends now (a question for the owner, a
   *     failure)
   */
  Optional<JobResult> run(Turn turn) throws Exception;
}
