package io.agentteams.gateway.console.view;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Whether a pull agent has a worker connected now, as the scheduler sees it across its replicas.
 *
 * @param agentId the agent
 * @param connected whether a worker of it holds a job stream
 * @param since when the longest-open of its streams opened
 * @param streams how many of its streams are open
 */
public record WorkerStatus(
    String agentId, boolean connected, @Nullable Instant since, int streams) {

  /** An agent none of whose workers holds a stream. */
  public static WorkerStatus absent(String agentId) {
    return new WorkerStatus(agentId, false, null, 0);
  }
}
