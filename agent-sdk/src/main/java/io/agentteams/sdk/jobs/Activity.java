package io.agentteams.sdk.jobs;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A team's requests and hand-offs, newest first, each with its result and the receipt that returned
 * it.
 *
 * @param teamId the team
 * @param items the requests and hand-offs
 */
public record Activity(UUID teamId, List<Item> items) {

  /** The item of a request or hand-off. */
  public Optional<Item> of(UUID jobId) {
    return items.stream().filter(item -> item.request().id().equals(jobId)).findFirst();
  }

  /**
   * A request or hand-off and the receipt that returned its answer.
   *
   * @param request the request or hand-off (its result inside)
   * @param receipt the receipt, for a finished hand-off
   */
  public record Item(Job request, @Nullable Job receipt) {}
}
