package io.agentteams.sdk.jobs;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.HttpTransport;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * {@code /api/v1/teams/{teamId}/requests}, {@code /activity}, {@code /jobs/{jobId}/interrupt} and
 * {@code /api/v1/jobs}: asking members, answering their questions, cancelling and interrupting, and
 * watching what the team does.
 */
public final class Jobs {

  private final HttpTransport http;

  public Jobs(HttpTransport http) {
    this.http = http;
  }

  /**
   * Asks members (as the owner), or hands work to another member (as a member: {@code send_member},
   * whose answer comes back later as a receipt in the asking member's conversation).
   */
  public Requested request(UUID teamId, NewRequest request) {
    return Objects.requireNonNull(
        http.call(
            "POST", ApiPath.of("/api/v1/teams/{}/requests", teamId), request, Requested.class));
  }

  /** A job of the owner's. */
  public Job get(UUID jobId) {
    return Objects.requireNonNull(
        http.call("GET", ApiPath.of("/api/v1/jobs/{}", jobId), null, Job.class));
  }

  /**
   * Answers a job's clarification question; it queues again for a slot, still holding its
   * conversation. Repeating the same answer changes nothing.
   */
  public Job answer(UUID jobId, String text) {
    return Objects.requireNonNull(
        http.call(
            "POST", ApiPath.of("/api/v1/jobs/{}/answer", jobId), Map.of("text", text), Job.class));
  }

  /** Answers a job's structured interrupt with JSON. */
  public Job answer(UUID jobId, JsonNode response) {
    return Objects.requireNonNull(
        http.call(
            "POST",
            ApiPath.of("/api/v1/jobs/{}/answer", jobId),
            Map.of("response", response),
            Job.class));
  }

  /** Cancels an unfinished job; cancelling twice changes nothing. */
  public Job cancel(UUID jobId) {
    return Objects.requireNonNull(
        http.call("POST", ApiPath.of("/api/v1/jobs/{}/cancel", jobId), null, Job.class));
  }

  /**
   * Interrupts a member's job whose turn is under way (as the team's lead, with a member token, or
   * as its owner): its runtime is asked to stop the turn and the job ends {@code interrupted}, its
   * conversation and inbox kept and free for the next request. Interrupting twice changes nothing.
   */
  public Job interrupt(UUID teamId, UUID jobId) {
    return Objects.requireNonNull(
        http.call(
            "POST",
            ApiPath.of("/api/v1/teams/{}/jobs/{}/interrupt", teamId, jobId),
            null,
            Job.class));
  }

  /**
   * A page of the team's activity, newest first.
   *
   * @param limit 1 to 200; null for 50
   * @param before the page after this request's; null for the newest
   */
  public Activity activity(UUID teamId, @Nullable Integer limit, @Nullable UUID before) {
    return Objects.requireNonNull(
        http.call(
            "GET",
            ApiPath.of("/api/v1/teams/{}/activity", teamId)
                .query("limit", limit)
                .query("before", before),
            null,
            Activity.class));
  }
}
