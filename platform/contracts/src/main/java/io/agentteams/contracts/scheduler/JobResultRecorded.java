package io.agentteams.contracts.scheduler;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/**
 * A job finished and its result is final. mailbox-service keeps these as result records,
 * independently of the rotating message history.
 *
 * @param jobId the job
 * @param teamId its team
 * @param member the member that ran it
 * @param requester who asked: {@code owner} or the requesting member's name
 * @param status {@code completed}, {@code failed} or {@code cancelled}
 * @param parentJobId the job whose hand-off created it, if any
 * @param conversationId the member's conversation
 * @param runId the agent runtime's run id, if it reported one
 * @param request the frozen request text
 * @param answer the final answer or error text (capped at 6,000 UTF-8 bytes by the scheduler)
 * @param answerTruncated whether the scheduler cut the answer
 * @param createdAt ISO-8601 instant the job was created
 * @param startedAt ISO-8601 instant it started running, if it did
 * @param finishedAt ISO-8601 instant it finished
 */
public record JobResultRecorded(
    String jobId,
    String teamId,
    String member,
    String requester,
    String status,
    @Nullable String parentJobId,
    String conversationId,
    @Nullable String runId,
    String request,
    String answer,
    boolean answerTruncated,
    String createdAt,
    @Nullable String startedAt,
    String finishedAt)
    implements EventPayload {

  public static final String TYPE = "JobResultRecorded";

  @Override
  public String eventType() {
    return TYPE;
  }
}
