package io.agentteams.gateway.console.view;

import org.jspecify.annotations.Nullable;

/**
 * One entry of the activity feed: a request or hand-off, its result inside it, and the receipt that
 * returned its answer to the requester's conversation.
 */
public record ActivityItem(Job request, @Nullable Job receipt) {

  /** A version of the whole card: the request's and the receipt's. */
  public String version() {
    return request.version() + (receipt == null ? "" : "+" + receipt.version());
  }
}
