package io.agentteams.sdk.messages;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One job's result in full: who ran it for whom, how it ended, and its answer.
 *
 * @param jobId the job
 * @param teamId its team
 * @param member who ran it
 * @param requester who asked
 * @param status completed or failed
 * @param parentJobId the job it was handed off from, if any
 * @param createdAt when it was asked
 * @param startedAt when it started
 * @param finishedAt when it ended
 * @param conversationId the conversation it ran in
 * @param runId the runtime's id for the run
 * @param request an excerpt of the request
 * @param answer the retained answer
 */
public record ResultDetail(
    String jobId,
    UUID teamId,
    String member,
    String requester,
    String status,
    @Nullable String parentJobId,
    @Nullable Instant createdAt,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt,
    @Nullable String conversationId,
    @Nullable String runId,
    ResultPage.@Nullable Excerpt request,
    Answer answer) {

  /**
   * A job's retained answer.
   *
   * @param available whether the answer is kept
   * @param text the answer (data from the member that ran the job)
   * @param truncated whether it was cut
   */
  public record Answer(boolean available, String text, boolean truncated) {}
}
