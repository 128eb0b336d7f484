package io.agentteams.gateway.console.view;

import java.util.ArrayList;
import java.util.List;
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

  /** Every job of a feed: requests and hand-offs, and the receipts that returned answers. */
  public static List<Job> jobsOf(List<ActivityItem> activity) {
    List<Job> jobs = new ArrayList<>();
    for (ActivityItem item : activity) {
      jobs.add(item.request());
      if (item.receipt() != null) {
        jobs.add(item.receipt());
      }
    }
    return jobs;
  }
}
