package io.agentteams.contracts.scheduler;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/**
 * A job was accepted: an owner's request, a member's hand-off, or a result receipt. Carries the
 * frozen request so that activity feeds can show it without asking the scheduler.
 *
 * @param jobId the job
 * @param teamId its team
 * @param member the member whose conversation will run it
 * @param kind {@code request}, {@code handoff} or {@code receipt}
 * @param requester {@code owner} or the requesting member's name
 * @param parentJobId the job whose hand-off created it (for a receipt: the hand-off it returns)
 * @param chainId the chain the job counts against
 * @param conversationId the member's conversation
 * @param request the frozen request text (for a receipt: the returned answer)
 * @param createdAt ISO-8601 instant the job was accepted
 * @param jobRevision the job's revision (1 for a new job)
 */
public record JobRequested(
    String jobId,
    String teamId,
    String member,
    String kind,
    String requester,
    @Nullable String parentJobId,
    String chainId,
    String conversationId,
    String request,
    String createdAt,
    long jobRevision)
    implements EventPayload {

  public static final String TYPE = "JobRequested";

  @Override
  public String eventType() {
    return TYPE;
  }
}
