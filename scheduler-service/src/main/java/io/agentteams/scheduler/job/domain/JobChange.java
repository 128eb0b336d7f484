package io.agentteams.scheduler.job.domain;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One state transition of a job, as others must learn of it.
 *
 * @param jobId the job
 * @param from the state before; null when the job was just created
 * @param to the state after
 * @param revision the job's revision after the transition
 */
public record JobChange(UUID jobId, @Nullable JobState from, JobState to, long revision) {

  /** Whether the job left a state that held a slot for one that does not. */
  public boolean releasedSlot() {
    return from != null && from.holdsSlot() && !to.holdsSlot();
  }
}
