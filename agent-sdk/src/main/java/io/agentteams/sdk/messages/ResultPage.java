package io.agentteams.sdk.messages;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A page of finished jobs' results, newest first, with excerpts.
 *
 * @param teamId the team
 * @param results the results
 * @param nextCursor pass it, with the same filters, for the next page; null on the last
 * @param cursorExpired true when the cursor's anchor left retention
 */
public record ResultPage(
    UUID teamId, List<Summary> results, @Nullable String nextCursor, boolean cursorExpired) {

  /**
   * One finished job.
   *
   * @param jobId the job
   * @param member who ran it
   * @param requester who asked
   * @param status completed or failed
   * @param parentJobId the job it was handed off from, if any
   * @param createdAt when it was asked
   * @param finishedAt when it ended
   * @param request an excerpt of the request
   * @param answer an excerpt of the answer
   */
  public record Summary(
      String jobId,
      String member,
      String requester,
      String status,
      @Nullable String parentJobId,
      Instant createdAt,
      Instant finishedAt,
      Excerpt request,
      Excerpt answer) {}

  /**
   * A text cut to its first bytes.
   *
   * @param text the excerpt
   * @param truncated whether it was cut
   */
  public record Excerpt(String text, boolean truncated) {}
}
