package io.agentteams.scheduler.presence.domain;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Whether an agent of an owner has a pull worker connected now.
 *
 * @param agentId the agent
 * @param streams its job streams open now, across every replica
 * @param since when the longest-open of them opened; null when none is
 */
public record WorkerPresence(String agentId, int streams, @Nullable Instant since) {

  public WorkerPresence {
    Objects.requireNonNull(agentId, "agent id");
    if (streams < 0) {
      throw new IllegalArgumentException("streams cannot be negative");
    }
  }

  /** An agent with no worker connected. */
  public static WorkerPresence absent(String agentId) {
    return new WorkerPresence(agentId, 0, null);
  }

  /** Whether a worker of the agent holds a job stream now. */
  public boolean connected() {
    return streams > 0;
  }
}
