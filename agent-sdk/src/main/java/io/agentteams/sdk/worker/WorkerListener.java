package io.agentteams.sdk.worker;

import java.util.UUID;

/**
 * What a worker tells whoever watches it (logs, metrics, tests). Every method has a default that
 * does nothing; they are called on the worker's threads and must return quickly.
 */
public interface WorkerListener {

  /** The job stream is open (again). */
  default void connected() {}

  /** The job stream dropped or could not open; the worker reconnects unless it is stopping. */
  default void disconnected(Throwable cause) {}

  /** An offer arrived. */
  default void offered(JobOffer offer) {}

  /** A report reached the scheduler ({@code started}, {@code heartbeat}, {@code completed}...). */
  default void reported(UUID jobId, String type) {}

  /** A report could not be made; {@code retrying} says whether the worker tries again. */
  default void reportFailed(UUID jobId, String type, Throwable cause, boolean retrying) {}

  /** The team's lead (or its owner) interrupted a job this worker holds. */
  default void interrupted(UUID jobId) {}

  /** The handler returned (or threw) for a job. */
  default void handled(UUID jobId, JobResult result) {}

  /** The worker stopped for good: closed, or a refusal it cannot get past (the cause). */
  default void stopped(Throwable cause) {}
}
