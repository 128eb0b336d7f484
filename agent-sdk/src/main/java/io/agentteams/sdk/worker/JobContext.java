package io.agentteams.sdk.worker;

import io.agentteams.sdk.tools.MemberTools;

/** What a handler gets for one job. */
public interface JobContext {

  /** The job as offered. */
  JobOffer offer();

  /**
   * The member tools of the job's member, acting with the job's member token (kept fresh by the
   * worker's heartbeats for as long as the job runs).
   */
  MemberTools tools();

  /**
   * True when the job's earlier run has an unknown outcome and the handler runs it again under
   * {@link ReconcilePolicy#RESUME}: continue from what the team's records show, repeating no
   * effect.
   */
  boolean reconciling();

  /** True once the worker drains: finish soon, or return and let the job be reconciled. */
  boolean stopping();

  /** True once the owner cancelled the job: whatever it returns is not recorded. */
  boolean cancelled();

  /**
   * True once the team's lead (or its owner) interrupted the job: stop the turn and return soon.
   * The job has ended {@code interrupted}; the worker reports nothing more for it (no heartbeat,
   * and whatever the handler returns is not recorded).
   */
  boolean interrupted();

  /**
   * Runs {@code action} once when the job is interrupted (at once, on the calling thread, if it
   * already was), on the worker's stream thread: it must return quickly, e.g. by cancelling the
   * model call the handler waits on.
   */
  void onInterrupt(Runnable action);

  /**
   * Reports what the job has used so far (a total, not an increment), at once: the scheduler's
   * ledger holds it against the budgets of the job's member, team, owner, run and chain. Returns
   * false when the job may not go on — a budget had no room for the usage and the scheduler stopped
   * the job, or it ended otherwise — and the handler should then return promptly.
   */
  boolean reportUsage(io.agentteams.sdk.jobs.Usage soFar);

  /** The worker's id (it holds the job's lease). */
  String workerId();
}
