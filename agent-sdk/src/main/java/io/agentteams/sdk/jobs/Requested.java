package io.agentteams.sdk.jobs;

import java.util.List;

/**
 * The jobs a request created.
 *
 * @param jobs one per recipient
 * @param replayed true when the idempotency key had already created them
 */
public record Requested(List<Job> jobs, boolean replayed) {

  /** The only job (a request to one member). */
  public Job job() {
    if (jobs.size() != 1) {
      throw new IllegalStateException("the request created " + jobs.size() + " jobs");
    }
    return jobs.get(0);
  }
}
