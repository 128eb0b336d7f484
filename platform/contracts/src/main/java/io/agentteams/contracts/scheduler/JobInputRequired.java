package io.agentteams.contracts.scheduler;

import io.agentteams.contracts.EventPayload;

/**
 * A running job stopped to ask its owner something. The job keeps its conversation's head and
 * releases its admission slot until the owner answers or cancels it.
 *
 * @param jobId the job
 * @param teamId its team
 * @param member the member that asked
 * @param inputKind {@code clarification} (answered with text) or {@code interrupt} (answered with
 *     JSON)
 * @param question the question text, or the interrupt's JSON payload as text
 * @param jobRevision the job's revision after this change
 */
public record JobInputRequired(
    String jobId, String teamId, String member, String inputKind, String question, long jobRevision)
    implements EventPayload {

  public static final String TYPE = "JobInputRequired";

  @Override
  public String eventType() {
    return TYPE;
  }
}
