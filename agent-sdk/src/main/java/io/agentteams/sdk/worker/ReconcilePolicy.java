package io.agentteams.sdk.worker;

/**
 * What a worker does with a job whose earlier run's outcome is unknown (its lease lapsed with
 * another worker, or with this worker before it restarted) and of which its journal has no final
 * record.
 */
public enum ReconcilePolicy {
  /**
   * Report it failed, saying its outcome is unknown: the job is never run a second time. The
   * default, right for any agent whose effects cannot be repeated safely.
   */
  FAIL,
  /**
   * Run the handler again with {@link JobContext#reconciling()} true: for agents whose every effect
   * is idempotent (request ids, client message ids, idempotency keys, claims checked first), so the
   * second run continues the first instead of repeating it.
   */
  RESUME
}
