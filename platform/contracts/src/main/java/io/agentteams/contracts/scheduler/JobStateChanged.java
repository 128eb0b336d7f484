package io.agentteams.contracts.scheduler;

import io.agentteams.contracts.EventPayload;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A job moved to another state. Published for every transition of every job, so that other services
 * can keep a projection of unfinished work (team-service refuses to delete a team while any of its
 * jobs is queued, admitted, running, waiting for input or for a worker, or unknown).
 *
 * @param jobId the job
 * @param teamId its team
 * @param member the member whose conversation runs it
 * @param kind {@code request}, {@code handoff} or {@code receipt}
 * @param state {@code queued}, {@code admitted}, {@code running}, {@code waiting_input}, {@code
 *     waiting_worker} (no worker took it in time; it gave its slot back), {@code unknown}, {@code
 *     completed}, {@code failed}, {@code cancelled} or {@code interrupted} (its team's lead or
 *     owner stopped its turn)
 * @param previousState the state before, null for a new job
 * @param jobRevision increases with every transition of this job; stale events are ignored
 */
public record JobStateChanged(
    String jobId,
    String teamId,
    String member,
    String kind,
    String state,
    @Nullable String previousState,
    long jobRevision)
    implements EventPayload {

  public static final String TYPE = "JobStateChanged";

  /** Every state a job can be in, as {@code state} names them. */
  public static final List<String> STATES =
      List.of(
          "queued",
          "admitted",
          "running",
          "waiting_input",
          "waiting_worker",
          "unknown",
          "completed",
          "failed",
          "cancelled",
          "interrupted");

  /** Whether a job in this state still holds work for its team. */
  public static boolean isUnfinished(String state) {
    return switch (state) {
      case "completed", "failed", "cancelled", "interrupted" -> false;
      default -> true;
    };
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
