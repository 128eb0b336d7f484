package io.agentteams.mailbox.result.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a finished job left behind: who ran it for whom, how it ended, and its answer.
 *
 * @param jobId the job
 * @param teamId its team
 * @param member the member that ran it
 * @param requester {@code owner} or the requesting member's name
 * @param status {@code completed}, {@code failed} or {@code cancelled}
 * @param parentJobId the job whose hand-off created it
 * @param conversationId the member's conversation
 * @param runId the agent runtime's run id
 * @param request the frozen request text
 * @param answer the final answer or error text, as the scheduler kept it
 * @param answerTruncated whether the scheduler cut the answer when collecting it
 * @param createdAt when the job was created
 * @param startedAt when it started running
 * @param finishedAt when it finished
 */
public record ResultRecord(
    String jobId,
    UUID teamId,
    String member,
    String requester,
    String status,
    @Nullable String parentJobId,
    String conversationId,
    @Nullable String runId,
    String request,
    String answer,
    boolean answerTruncated,
    Instant createdAt,
    @Nullable Instant startedAt,
    Instant finishedAt) {

  public ResultRecord {
    Objects.requireNonNull(jobId, "job id");
    Objects.requireNonNull(teamId, "team id");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(answer, "answer");
  }

  /**
   * Whether the record holds an answer to show: a cancelled job has none, whatever notice came with
   * it.
   */
  public boolean answerAvailable() {
    return !"cancelled".equals(status) && !answer.isEmpty();
  }
}
