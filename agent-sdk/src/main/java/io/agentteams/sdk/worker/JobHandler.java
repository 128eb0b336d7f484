package io.agentteams.sdk.worker;

/**
 * The agent: runs one job and says how it ended. Called on a worker thread, up to the worker's
 * {@code maxJobs} at once; an exception is reported as a failed run with its message.
 */
@FunctionalInterface
public interface JobHandler {

  /** Runs the job in the member's conversation and returns how it ended. */
  JobResult handle(JobContext job) throws Exception;

  /**
   * What to do with a job whose earlier run's outcome is unknown and of which the worker has no
   * final record; {@link ReconcilePolicy#FAIL} unless the agent is idempotent.
   */
  default ReconcilePolicy reconcilePolicy() {
    return ReconcilePolicy.FAIL;
  }
}
