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

  /** The worker's id (it holds the job's lease). */
  String workerId();
}
